import * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';
import { keyEnvNames } from '../host/api-keys.js';

/**
 * The failure buttons that open config.json where the fix goes (issue 26): "Edit Model…" at the
 * model's entry (its name, base URL, key variable), "Edit Budget…" at the agent's entry (its
 * limits). The names come from the webview: only a model or agent config.json has is opened.
 */
export async function openConfigAt(pepe: Pepe, section: 'models' | 'agents', name: string): Promise<void> {
  const entries = section === 'models' ? pepe.config.models : pepe.config.agents;
  if (!entries || !Object.hasOwn(entries, name)) throw new Error(`config.json has no ${section === 'models' ? 'model' : 'agent'} named ${name}`);
  // Opened first (it may add the "$schema" line), then the cursor goes to the entry in the text as shown.
  await vscode.commands.executeCommand('pepe.config.open');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(pepe.paths.config));
  const { line, column } = entryPosition(doc.getText(), section, name);
  const at = new vscode.Position(line - 1, column - 1);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at), preview: false });
}

/** "Set API Key…" on a failure: the name comes from the failure's text, so only a key a configured model reads is offered. */
export async function setApiKeyFor(pepe: Pepe, name: string): Promise<void> {
  if (!keyEnvNames(pepe.config.models).includes(name)) throw new Error(`no configured model reads an API key named ${name}`);
  await vscode.commands.executeCommand('pepe.apiKey.set', { name });
}

/** Where `"name":` starts inside the top-level `section` of config.json's text (1-based); the top when not found. */
export function entryPosition(text: string, section: string, name: string): { line: number; column: number } {
  const start = text.search(new RegExp(`"${section}"\\s*:`));
  if (start < 0) return { line: 1, column: 1 };
  const key = new RegExp(`${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`, 'g');
  key.lastIndex = start;
  const found = key.exec(text);
  const at = found ? found.index : start;
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
