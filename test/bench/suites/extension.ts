/**
 * Extension figures (issue 8). The .vsix size is the vsix suite (vsix.ts). Activation time and the
 * chat rendering figure come from the real VS Code harness: every integration run (and so every CI
 * run) records activation in `.test-tmp/extension-figures.json` (`{ "activationMs": [..],
 * "chatRenderMs": [..], "source": ".." }`) and the bench reads it. When the file has no activation
 * figures (a fresh clone), the bench runs the integration layer's activation test itself, so the
 * row is measured wherever VS Code's test prerequisites are installed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { checkPrereqs } from '../../vscode/prereqs.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';

/** Activation target (issue 27): loading dist/extension.js plus activate(), in the real extension host. */
const ACTIVATION_TARGET_MS = 50;

function readFigures(): { activationMs?: number[]; chatRenderMs?: number[]; source?: string } {
  if (!existsSync(EXTENSION_FIGURES)) return {};
  try {
    return JSON.parse(readFileSync(EXTENSION_FIGURES, 'utf8'));
  } catch {
    return {};
  }
}

export const ROOT = join(import.meta.dirname, '../../..');
export const EXTENSION_FIGURES = join(ROOT, '.test-tmp/extension-figures.json');

export async function extensionSuite(ctx: SuiteContext): Promise<Figure[]> {
  const out: Figure[] = [];
  // The .vsix size is its own suite (vsix.ts), built fresh in the run.
  let figs = readFigures();
  let measuredNow = '';
  if (!figs.activationMs?.length) {
    const prereqs = checkPrereqs();
    if (prereqs.ok) {
      ctx.log('extension: no activation figures recorded yet; running the integration layer\'s activation test');
      const r = await execa('npx', ['tsx', 'test/integration/run.ts'], { cwd: ROOT, env: { ...process.env, PEPE_TEST_GREP: '^lifecycle ' }, reject: false, all: true });
      if (r.exitCode !== 0) ctx.log(`extension: the activation run failed (exit ${r.exitCode}): ${String(r.all).slice(-400)}`);
      figs = readFigures();
      measuredNow = ' (measured by this bench run)';
    } else {
      measuredNow = `; VS Code test prerequisites missing: ${prereqs.missing.join(', ')} (npm run setup:vscode)`;
    }
  }
  const from = figs.source ? `from ${figs.source}` : `from ${EXTENSION_FIGURES}`;
  out.push(
    figs.activationMs?.length
      ? figure('extension', 'extension.activation', 'activation: loading dist/extension.js + activate() in the real VS Code extension host', 'ms', figs.activationMs, { below: ACTIVATION_TARGET_MS, note: from + measuredNow })
      : figure('extension', 'extension.activation', 'activation: loading dist/extension.js + activate() in the real VS Code extension host', 'ms', null, {
          below: ACTIVATION_TARGET_MS,
          note: `not measured: no activation figures from an integration run${measuredNow}`,
        }),
    figs.chatRenderMs?.length
      ? figure('extension', 'extension.chat_render', 'chat: longest main-thread task while streaming 20,000 tokens into 1,000 messages (0 = none of 50 ms or more, the long-task threshold)', 'ms', figs.chatRenderMs, { note: from })
      : figure('extension', 'extension.chat_render', 'chat rendering figure (from the chat issue)', 'ms', null, {
          note: 'NOT MEASURED YET: the chat webview has no rendering measurement to read',
        }),
  );
  return out;
}
