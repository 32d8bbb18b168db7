import type * as vscode from 'vscode';
import { webviewPage } from '../webview-page.js';

/**
 * The model setup form's page (webview-page.ts: the strict CSP, no images): fixed markup (nothing
 * from config.json or a server is put into the HTML; the script fills values in as text), no
 * connect-src (the page cannot reach the network: the host asks servers for their models).
 */
export function modelFormHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewPage(webview, extensionUri, { title: 'Set Up a Model', styles: [['media', 'model-form.css']], script: ['dist', 'model-form.js'], body: FORM });
}

const FORM = `<main class="form" aria-labelledby="form-title">
<h1 id="form-title">Set up a model</h1>
<p class="lead">Agents need a model to answer. Choose where it runs, test it, then save it.</p>
<p class="lead" id="first-note" hidden>This is your first model: agents without a model of their own will use it.</p>

<div class="row">
<label for="provider">Provider</label>
<select id="provider">
<option value="openai">OpenAI</option>
<option value="anthropic">Anthropic</option>
<option value="openai-compatible">A server on your machine or network (Ollama, LM Studio, vLLM, OpenRouter…)</option>
<option value="vscode">A VS Code language model (Copilot or another installed one)</option>
</select>
</div>

<div class="row" id="row-url" hidden>
<label for="base-url">Server address</label>
<input id="base-url" type="url" value="http://localhost:11434/v1" spellcheck="false" autocomplete="off">
<p class="hint">Where the server answers OpenAI-style requests, ending before /chat/completions.</p>
</div>

<div class="row" id="row-key">
<label for="api-key">API key</label>
<input id="api-key" type="password" spellcheck="false" autocomplete="off">
<p class="hint" id="key-hint"></p>
</div>

<div class="row" id="row-model">
<label for="model-select">Model</label>
<div class="model-line">
<select id="model-select" hidden></select>
<input id="model-name" type="text" spellcheck="false" autocomplete="off" placeholder="the model's name, as the provider spells it" aria-label="Model name">
<button type="button" id="refresh" class="secondary" title="Ask the server for its models again">Refresh list</button>
</div>
<p class="hint" id="model-hint" aria-live="polite"></p>
</div>

<div class="row" id="row-id">
<label for="model-id">Name in Pepe</label>
<input id="model-id" type="text" spellcheck="false" autocomplete="off">
<p class="hint">What an agent's settings call this model.</p>
</div>

<div class="actions">
<button type="button" id="test" class="secondary">Test</button>
<button type="button" id="save">Save</button>
</div>
<p id="status" class="status" role="status" aria-live="polite"></p>

<section id="after" class="after" hidden aria-label="Saved">
<p id="after-text"></p>
<div class="actions">
<button type="button" id="add-agent">Add Agent…</button>
<button type="button" id="close" class="secondary">Close</button>
</div>
</section>
</main>`;
