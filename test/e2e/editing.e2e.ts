/**
 * Acceptance (issue 17) in the real workbench: an edit_file approval opens a diff editor (the file
 * now ↔ as proposed); Accept applies it through VS Code, so the open editor updates and Ctrl+Z takes
 * it back; Reject leaves the file untouched; a buffer with unsaved changes is never overwritten.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { answerProposedChange, clickDialogButton, dialogMessage, domText, onTestFailure, openWorkbench, runCommand, waitFor, waitForDialog, waitForWorkbench, type Workbench } from '../vscode/harness';
import { chatFrame } from './chat-harness';
import { docScreenshot, makePepeHome, pickItem, waitForQuickInputClosed } from './pepe-ui';

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

const ORIGINAL = 'export const greeting = "hello";\nexport const answer = 41;\n';
const EDITED = 'export const greeting = "hello";\nexport const answer = 42;\n';

describe('e2e: edits approved on a diff and applied through VS Code', function () {
  let wb: Workbench | undefined;
  let home: string;
  let workspace: string;

  before(async function () {
    workspace = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-edit-ws-'));
    home = makePepeHome({});
    const agents: Record<string, unknown> = {};
    for (const [agent, file] of [['accepter', 'accepted.ts'], ['rejecter', 'rejected.ts'], ['careful', 'dirty.ts']] as const) {
      writeFileSync(path.join(workspace, file), ORIGINAL);
      const script = path.join(home, `${agent}.json`);
      const call = { name: 'edit_file', arguments: { path: file, edits: [{ search: 'answer = 41', replace: 'answer = 42' }] } };
      writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [call] }, { text: 'done' }] }));
      agents[agent] = { model: `mock:${script}` };
    }
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ agents }, null, 2));
    // A browser workbench saves edits after a delay by default (files.autoSave: afterDelay), which
    // would write the "unsaved" text to disk before the agent's edit: keep buffers dirty, as on the desktop.
    wb = await openWorkbench({ env: { PEPE_HOME: home }, workspace, settings: { 'files.autoSave': 'off' } });
    await waitForWorkbench(wb.page);
  });
  beforeEach(async function () {
    // Each test starts from a clean editor area: no chat panel or diff left from the one before.
    // A dialog still open here is a bug of the test before: name it instead of timing out.
    assert.equal(await dialogMessage(wb!.page), undefined, 'a modal dialog is open before the test starts');
    await wb!.page.keyboard.press('Escape');
    await runCommand(wb!.page, 'View: Close All Editors');
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  async function openFile(page: Page, name: string): Promise<void> {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill(name);
    // Enter only once the focused row is this file (before filtering, the list shows recent files).
    const focused = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await waitFor(async () => (domText(await focused.innerText().catch(() => '')).trim() === name ? true : undefined), { timeoutMs: 30_000, what: `${name} focused in quick open` });
    await page.keyboard.press('Enter');
    await waitForQuickInputClosed(page);
    await page.locator(`.tabs-container .tab[aria-label^="${name}"]`).first().waitFor({ state: 'visible', timeout: 30_000 });
  }

  async function startTurn(page: Page, agent: string): Promise<void> {
    await runCommand(page, 'Pepe: Switch Agent…');
    await pickItem(page, agent);
    await waitForQuickInputClosed(page);
    await runCommand(page, 'Pepe: Open Chat');
    // With several agents, Open Chat asks which one.
    const title = page.locator('.quick-input-widget .quick-input-title');
    const asked = await waitFor(async () => ((await title.isVisible().catch(() => false)) && domText(await title.innerText()).includes('Open Chat with') ? true : undefined), { timeoutMs: 10_000, what: 'the agent picker' }).catch(() => false);
    if (asked) {
      await pickItem(page, agent);
      await waitForQuickInputClosed(page);
    }
    const input = chatFrame(page).locator('#input');
    await input.waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor(async () => ((await input.getAttribute('placeholder'))?.includes(agent) ? true : undefined), { timeoutMs: 30_000, what: `the chat panel for ${agent}` });
    await input.fill('please fix the answer');
    await input.press('Enter');
  }

  /** The diff editor's tab for `file`, once the approval opened it. */
  async function waitForDiff(page: Page, file: string): Promise<string> {
    return waitFor(
      async () => {
        const labels = (await page.locator('.tabs-container .tab').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).map(domText);
        return labels.find((l) => l.includes(file) && l.includes('Accept or Reject'));
      },
      { timeoutMs: 60_000, what: `the diff editor for ${file}` },
    );
  }

  it('Accept applies the edit through the open editor, and Ctrl+Z takes it back', async function () {
    const page = wb!.page;
    const file = path.join(workspace, 'accepted.ts');
    await openFile(page, 'accepted.ts');
    await startTurn(page, 'accepter');
    await waitForDiff(page, 'accepted.ts');
    // Both sides of the diff: the current line removed, the proposed one added.
    // (The tab shows before the diff editor has rendered its lines: wait for them.)
    await waitFor(async () => {
      const diffText = domText(await page.locator('.monaco-diff-editor').first().innerText().catch(() => ''));
      return diffText.includes('answer = 41') && diffText.includes('answer = 42') ? true : undefined;
    }, { timeoutMs: 30_000, what: 'both sides of the diff rendered' });
    await docScreenshot(page, 'edit-diff-approval.png');
    await answerProposedChange(page, 'Accept');
    await waitFor(() => (readFileSync(file, 'utf8') === EDITED ? true : undefined), { timeoutMs: 30_000, what: 'the edit on disk' });
    await waitFor(() => (toolResults(home, 'accepter').some((r) => r.startsWith('edited accepted.ts')) ? true : undefined), { timeoutMs: 30_000, what: 'the tool result' });
    // The chat's card links to the file, and the turn offers its checkpoint.
    const chat = chatFrame(page);
    await chat.locator('.card[data-tool="edit_file"] [data-action="open-file"][data-path="accepted.ts"]').waitFor({ state: 'visible', timeout: 30_000 });
    await chat.locator('.card[data-tool="edit_file"] [data-action="show-change"]').waitFor({ state: 'visible', timeout: 30_000 });
    await chat.locator('[data-kind="turn-checkpoint"] [data-action="restore-turn"]').waitFor({ state: 'visible', timeout: 30_000 });
    await docScreenshot(page, 'chat-edit-card.png');
    // "Show changes" opens VS Code's diff editor: the file before the turn ↔ now (issue 26).
    await chat.locator('.card[data-tool="edit_file"] [data-action="show-change"]').click();
    await waitFor(async () => {
      const original = domText(await page.locator('.monaco-diff-editor .editor.original .view-lines').last().innerText().catch(() => ''));
      const modified = domText(await page.locator('.monaco-diff-editor .editor.modified .view-lines').last().innerText().catch(() => ''));
      return original.includes('export const answer = 41;') && modified.includes('export const answer = 42;') ? true : undefined;
    }, { timeoutMs: 30_000, what: "the edit's diff since before the turn" });

    // The person's undo in the editor takes the agent's edit back.
    await page.locator('.tabs-container .tab[aria-label^="accepted.ts"]').first().click();
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Z');
    await page.keyboard.press('Control+S');
    await waitFor(() => (readFileSync(file, 'utf8') === ORIGINAL ? true : undefined), { timeoutMs: 30_000, what: 'the undo saved to disk' });
  });

  it('Reject leaves the file untouched and tells the agent', async function () {
    const page = wb!.page;
    await startTurn(page, 'rejecter');
    await waitForDiff(page, 'rejected.ts');
    await answerProposedChange(page, 'Reject');
    await waitFor(() => (toolResults(home, 'rejecter').length > 0 ? true : undefined), { timeoutMs: 30_000, what: 'the tool result' });
    assert.match(toolResults(home, 'rejecter')[0]!, /denied|not run|refused/i);
    assert.equal(readFileSync(path.join(workspace, 'rejected.ts'), 'utf8'), ORIGINAL);
  });

  it('a buffer with unsaved changes is not overwritten, even when the edit is accepted', async function () {
    const page = wb!.page;
    await openFile(page, 'dirty.ts');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// my unsaved work');
    // The buffer is dirty (its tab says so) and the file on disk is as it was, before the turn starts.
    await page.locator('.tabs-container .tab.dirty[aria-label^="dirty.ts"]').first().waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(readFileSync(path.join(workspace, 'dirty.ts'), 'utf8'), ORIGINAL);
    await startTurn(page, 'careful');
    await waitForDiff(page, 'dirty.ts');
    await answerProposedChange(page, 'Accept');
    await waitFor(() => (toolResults(home, 'careful').length > 0 ? true : undefined), { timeoutMs: 30_000, what: 'the tool result' });
    assert.match(toolResults(home, 'careful')[0]!, /unsaved changes in the editor/);
    assert.equal(readFileSync(path.join(workspace, 'dirty.ts'), 'utf8'), ORIGINAL, 'the file on disk is as it was');
    await page.locator('.tabs-container .tab[aria-label^="dirty.ts"]').first().click();
    const text = domText(await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText());
    assert.ok(text.includes('my unsaved work'), `the unsaved text is still in the buffer: ${text}`);
    await docScreenshot(page, 'edit-dirty-refused.png');
    // Clean up as the person would, so closing the editors asks nothing.
    await runCommand(page, 'File: Revert File');
  });

  it('Restore Checkpoint… brings back a file deleted since the turn', async function () {
    const page = wb!.page;
    const file = path.join(workspace, 'accepted.ts');
    assert.equal(readFileSync(file, 'utf8'), ORIGINAL);
    rmSync(file);
    await runCommand(page, 'Pepe: Restore Checkpoint…');
    // The newest checkpoint: taken before the last turn's edit, when accepted.ts was there; named
    // by the message that started that turn, with the agent beside it (issue 26).
    const focused = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused');
    await waitFor(async () => {
      const row = domText(await focused.innerText().catch(() => ''));
      return row.includes('before “please fix the answer”') && row.includes('careful') ? true : undefined;
    }, { timeoutMs: 30_000, what: 'the checkpoint list' });
    await page.keyboard.press('Enter');
    const message = await waitForDialog(page, 30_000);
    assert.match(message, /Restore .* to before “please fix the answer” \(careful · /);
    const detail = domText(await page.locator('.monaco-dialog-box .dialog-message-detail').innerText());
    assert.ok(detail.includes('bring back accepted.ts'), detail);
    await clickDialogButton(page, 'Restore');
    await waitFor(() => (existsSync(file) && readFileSync(file, 'utf8') === ORIGINAL ? true : undefined), { timeoutMs: 30_000, what: 'accepted.ts restored' });
  });
});
