/**
 * Extension figures (issue 8). The .vsix size is the vsix suite (vsix.ts). Activation time and the
 * chat rendering figure come from the real VS Code harness: when a run of it leaves
 * `.test-tmp/extension-figures.json` (`{ "activationMs": [..], "chatRenderMs": [..], "source": ".." }`)
 * the bench reads it; otherwise those rows say "not measured yet".
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { figure, type Figure, type SuiteContext } from '../figure.js';

export const ROOT = join(import.meta.dirname, '../../..');
export const EXTENSION_FIGURES = join(ROOT, '.test-tmp/extension-figures.json');

export async function extensionSuite(ctx: SuiteContext): Promise<Figure[]> {
  const out: Figure[] = [];
  // The .vsix size is its own suite (vsix.ts), built fresh in the run.
  let figs: { activationMs?: number[]; chatRenderMs?: number[]; source?: string } = {};
  if (existsSync(EXTENSION_FIGURES)) {
    try {
      figs = JSON.parse(readFileSync(EXTENSION_FIGURES, 'utf8'));
    } catch {
      figs = {};
    }
  }
  const from = figs.source ? `from ${figs.source}` : `from ${EXTENSION_FIGURES}`;
  out.push(
    figs.activationMs?.length
      ? figure('extension', 'extension.activation', 'activation time in the real VS Code harness', 'ms', figs.activationMs, { note: from })
      : figure('extension', 'extension.activation', 'activation time in the real VS Code harness', 'ms', null, {
          note: 'NOT MEASURED YET: no figures file from the VS Code harness (the extension work is in progress)',
        }),
    figs.chatRenderMs?.length
      ? figure('extension', 'extension.chat_render', 'chat: longest main-thread task while streaming 20,000 tokens into 1,000 messages (0 = none of 50 ms or more, the long-task threshold)', 'ms', figs.chatRenderMs, { note: from })
      : figure('extension', 'extension.chat_render', 'chat rendering figure (from the chat issue)', 'ms', null, {
          note: 'NOT MEASURED YET: the chat webview has no rendering measurement to read',
        }),
  );
  return out;
}
