/**
 * Acceptance (issue 25) in the real workbench: an edit that introduces a type error in a `.ts`
 * file gets VS Code's own diagnostic back in the tool result, so the agent sees what it broke.
 * The diagnostics come from the TypeScript language features extension that ships with VS Code
 * (built into the e2e workbench); no test extension stands in for it.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { domText, onTestFailure, openWorkbench, runCommand, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { chatFrame } from './chat-harness';
import { makePepeHome, waitForQuickInputClosed } from './pepe-ui';

/** The tool results of an agent's sessions, from the transcripts on disk. */
function toolResults(home: string, agent: string): string[] {
  const dir = path.join(home, 'sessions', agent);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as { message?: { role?: string; content?: string } })
    .map((r) => r.message ?? (r as { role?: string; content?: string }))
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content));
}

async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(name);
  const focused = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
  await waitFor(async () => (domText(await focused.innerText().catch(() => '')).trim() === name ? true : undefined), { timeoutMs: 30_000, what: `${name} focused in quick open` });
  await page.keyboard.press('Enter');
  await waitForQuickInputClosed(page);
  await page.locator(`.tabs-container .tab[aria-label^="${name}"]`).first().waitFor({ state: 'visible', timeout: 30_000 });
}

describe('e2e: the editor\'s diagnostics after an edit', function () {
  let wb: Workbench | undefined;
  let home: string;
  let workspace: string;

  before(async function () {
    workspace = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-diag-ws-'));
    writeFileSync(path.join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
    writeFileSync(path.join(workspace, 'calc.ts'), 'export const answer: number = 41;\n');
    // Already broken before the edit: its error must not be reported as the edit's.
    writeFileSync(path.join(workspace, 'warm.ts'), 'export const broken: number = "old";\n');
    home = makePepeHome({});
    const script = path.join(home, 'fixer.json');
    const call = { name: 'edit_file', arguments: { path: 'calc.ts', edits: [{ search: '= 41', replace: '= "forty-two"' }] } };
    writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [call] }, { text: 'done' }] }));
    // Pre-approved, so the edit runs without the diff approval (covered by the editing e2e).
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ agents: { fixer: { model: `mock:${script}`, auto_approve: ['edit_file'] } } }, null, 2));
    wb = await openWorkbench({ env: { PEPE_HOME: home }, workspace });
    await waitForWorkbench(wb.page);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  it('an edit that introduces a type error gets the diagnostic back in the tool result', async function () {
    const page = wb!.page;
    // The TypeScript server starts on the first .ts file opened: wait until it reports warm.ts's error.
    await openFile(page, 'warm.ts');
    const problems = page.locator('[id="status.problems"]');
    await waitFor(async () => (/\b1\b/.test(domText((await problems.getAttribute('aria-label').catch(() => null)) ?? (await problems.innerText().catch(() => '')))) ? true : undefined), { timeoutMs: 120_000, what: 'the TypeScript server reporting warm.ts' });
    await openFile(page, 'calc.ts');

    await runCommand(page, 'Pepe: Open Chat', 120_000);
    const input = chatFrame(page).locator('#input');
    await input.waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor(async () => ((await input.getAttribute('placeholder'))?.includes('fixer') ? true : undefined), { timeoutMs: 30_000, what: 'the chat panel for fixer' });
    await input.fill('make the answer a word');
    await input.press('Enter');

    const result = await waitFor(() => toolResults(home, 'fixer').find((r) => r.startsWith('edited calc.ts')), { timeoutMs: 90_000, what: 'the edit_file result' });
    assert.equal(readFileSync(path.join(workspace, 'calc.ts'), 'utf8'), 'export const answer: number = "forty-two";\n');
    assert.match(result, /The editor reports 1 new error in calc\.ts after this change:\n- calc\.ts:1:14 error: Type 'string' is not assignable to type 'number'\. \(ts 2322\)/);
    assert.ok(!result.includes('warm.ts') && !result.includes('"old"'), result);
    // The chat's card shows the same result.
    await chatFrame(page).locator('.card[data-tool="edit_file"]').filter({ hasText: 'new error' }).first().waitFor({ state: 'attached', timeout: 30_000 });
  });
});
