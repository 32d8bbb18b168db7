/// <reference lib="dom" />
import {
  draftProblem,
  keyEnvFor,
  parseHostFormMessage,
  suggestModelId,
  isFormProvider,
  type Draft,
  type FormMessage,
  type FormProvider,
  type HostFormMessage,
} from '../protocol/model-form-messages.js';

/**
 * The model setup form's script: one page, provider → server address → key → model (from the
 * server's own list when it has one) → name in Pepe, with Test and Save. Talks to the host only
 * through the validated messages in src/protocol/model-form-messages.ts. A saved key is never
 * shown again: the key box is emptied and only says that a key is stored.
 */
interface VsCodeApi {
  postMessage(message: FormMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: FormMessage) => vscode.postMessage(m);
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const provider = $<HTMLSelectElement>('provider');
const baseUrl = $<HTMLInputElement>('base-url');
const apiKey = $<HTMLInputElement>('api-key');
const keyHint = $<HTMLElement>('key-hint');
const modelSelect = $<HTMLSelectElement>('model-select');
const modelName = $<HTMLInputElement>('model-name');
const modelHint = $<HTMLElement>('model-hint');
const refresh = $<HTMLButtonElement>('refresh');
const modelId = $<HTMLInputElement>('model-id');
const testButton = $<HTMLButtonElement>('test');
const saveButton = $<HTMLButtonElement>('save');
const status = $<HTMLElement>('status');
const after = $<HTMLElement>('after');
const afterText = $<HTMLElement>('after-text');

const OTHER = '\u0000other';
let existing: string[] = [];
let stored = new Set<string>();
let idTouched = false;
let seq = 0;
let busy = false;

const rows = { url: $<HTMLElement>('row-url'), key: $<HTMLElement>('row-key'), id: $<HTMLElement>('row-id') };

function current(): FormProvider {
  return isFormProvider(provider.value) ? provider.value : 'openai';
}

function chosenModel(): string {
  return !modelSelect.hidden && modelSelect.value !== OTHER ? modelSelect.value : modelName.value.trim();
}

function draft(): Draft {
  const p = current();
  return {
    provider: p,
    ...(p === 'openai-compatible' ? { baseUrl: baseUrl.value.trim() } : {}),
    ...(p !== 'vscode' && apiKey.value ? { apiKey: apiKey.value } : {}),
    model: chosenModel(),
    id: p === 'vscode' ? '' : modelId.value.trim(),
  };
}

function say(text: string, kind: 'info' | 'ok' | 'error' | 'busy' = 'info'): void {
  status.textContent = text;
  status.className = `status ${kind}`;
}

function updateKeyHint(): void {
  const env = keyEnvFor(current(), modelId.value.trim());
  if (!env) return;
  const local = current() === 'openai-compatible';
  keyHint.textContent = stored.has(env)
    ? `A key is stored as ${env}. Leave this empty to keep it.`
    : local
      ? `Leave empty when the server needs no key (Ollama, LM Studio). Kept in VS Code's secret storage as ${env}, never in config.json.`
      : `Kept in VS Code's secret storage as ${env}, never in config.json.`;
}

function showProvider(): void {
  const p = current();
  rows.url.hidden = p !== 'openai-compatible';
  rows.key.hidden = p === 'vscode';
  rows.id.hidden = p === 'vscode';
  updateKeyHint();
  requestModels();
}

let timer: ReturnType<typeof setTimeout> | undefined;
function requestModelsSoon(): void {
  clearTimeout(timer);
  timer = setTimeout(requestModels, 600);
}

function requestModels(): void {
  clearTimeout(timer);
  seq += 1;
  modelHint.textContent = 'Asking the server for its models…';
  const p = current();
  post({ type: 'listModels', seq, provider: p, ...(p === 'openai-compatible' ? { baseUrl: baseUrl.value.trim() } : {}), ...(apiKey.value ? { apiKey: apiKey.value } : {}) });
}

function fillModels(models: string[], message: string | undefined, source: string | undefined): void {
  const before = chosenModel();
  modelSelect.replaceChildren();
  for (const m of models) modelSelect.append(new Option(m, m));
  modelSelect.append(new Option('Another model (type its name)…', OTHER));
  if (models.length) {
    modelSelect.hidden = false;
    modelSelect.value = models.includes(before) ? before : models[0]!;
    modelName.hidden = true;
    modelHint.textContent = `${models.length} model${models.length === 1 ? '' : 's'} offered by the server${source ? ` (${source})` : ''}.`;
  } else {
    modelSelect.hidden = true;
    modelName.hidden = false;
    modelHint.textContent = message ? `No list from the server: ${message}. Type the model's name.` : "Type the model's name.";
  }
  modelChanged();
}

function modelChanged(): void {
  modelName.hidden = !modelSelect.hidden && modelSelect.value !== OTHER;
  if (!idTouched && current() !== 'vscode') {
    const name = chosenModel();
    modelId.value = name ? suggestModelId(name, existing) : '';
    updateKeyHint();
  }
}

function setBusy(on: boolean): void {
  busy = on;
  testButton.disabled = on;
  saveButton.disabled = on;
}

function check(): Draft | undefined {
  const d = draft();
  const problem = draftProblem(d, existing);
  if (problem) {
    say(problem, 'error');
    return undefined;
  }
  return d;
}

provider.addEventListener('change', () => {
  after.hidden = true;
  showProvider();
});
baseUrl.addEventListener('input', requestModelsSoon);
apiKey.addEventListener('change', requestModels);
refresh.addEventListener('click', requestModels);
modelSelect.addEventListener('change', () => {
  modelChanged();
  if (!modelName.hidden) modelName.focus();
});
modelName.addEventListener('input', modelChanged);
modelId.addEventListener('input', () => {
  idTouched = true;
  updateKeyHint();
});
testButton.addEventListener('click', () => {
  const d = check();
  if (!d || busy) return;
  setBusy(true);
  say('Testing: sending one short request…', 'busy');
  post({ type: 'test', draft: d });
});
saveButton.addEventListener('click', () => {
  const d = check();
  if (!d || busy) return;
  setBusy(true);
  say('Saving…', 'busy');
  post({ type: 'save', draft: d });
});
$<HTMLButtonElement>('add-agent').addEventListener('click', () => post({ type: 'addAgent' }));
$<HTMLButtonElement>('close').addEventListener('click', () => post({ type: 'close' }));

function onMessage(m: HostFormMessage): void {
  switch (m.type) {
    case 'init':
      existing = m.existingIds;
      stored = new Set(m.storedKeys);
      $<HTMLElement>('first-note').hidden = !m.firstModel;
      showProvider();
      provider.focus();
      return;
    case 'models':
      if (m.seq === seq) fillModels(m.models, m.message, m.source);
      return;
    case 'testing':
      return;
    case 'tested':
      setBusy(false);
      if (m.ok) say(`The model answered in ${m.ms} ms: “${m.text ?? ''}”`, 'ok');
      else say(`The test failed after ${m.ms} ms: ${m.message ?? 'no answer'}${m.keyProblem ? ' Check the API key.' : ''}`, 'error');
      return;
    case 'saved':
      setBusy(false);
      // The key is not kept in the page once it is stored.
      apiKey.value = '';
      if (m.keyEnv) stored.add(m.keyEnv);
      existing = [...existing, m.id];
      idTouched = false;
      updateKeyHint();
      say('', 'info');
      afterText.textContent = `Saved as “${m.id}”.${m.madeDefault ? ' Agents without a model of their own use it.' : ''} Add an agent that uses it, or set up another model.`;
      after.hidden = false;
      $<HTMLButtonElement>('add-agent').focus();
      return;
    case 'problem':
      setBusy(false);
      say(m.message, 'error');
      return;
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  const m = parseHostFormMessage(event.data);
  if (m) onMessage(m);
});
post({ type: 'ready' });
