/**
 * Test-only entry point (bundled by chat-harness.ts, never shipped): the real extension
 * (dist/extension.js) plus the chat panels registered the way the final wiring in activate.ts
 * does it. Once activate.ts registers the chat itself, registering again throws ("already
 * registered") and the real wiring is what the tests exercise.
 */
import * as vscode from 'vscode';
import type { PepeTestingApi } from '../../src/extension/activate';
import { registerChatPanels } from '../../src/extension/chat/chat-panels';
import { loadCore } from '../../src/extension/core-loader';

type RealExtension = { activate(context: vscode.ExtensionContext): { testing?: PepeTestingApi } };

export function activate(context: vscode.ExtensionContext): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const real = require('./extension.js') as RealExtension;
  const api = real.activate(context);
  const host = api.testing?.host;
  if (!host) throw new Error('the extension did not expose its testing API (not in development mode?)');
  const log = vscode.window.createOutputChannel('Pepe Chat (test wiring)', { log: true });
  context.subscriptions.push(log);
  try {
    registerChatPanels(context, { getPepe: () => host.get(), core: () => loadCore(), log, onDidChange: host.onDidChange });
  } catch (e) {
    log.info(`chat already wired by the extension: ${e instanceof Error ? e.message : String(e)}`);
  }
  return api;
}

export function deactivate(): void {}
