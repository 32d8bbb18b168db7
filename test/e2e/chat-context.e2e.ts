/**
 * Acceptance (issue 17) in the real workbench: `@file` in the chat input attaches a workspace
 * file's content to the next turn — the scripted model echoes its prompt back, so the answer shows
 * exactly what the model was given — and the session's transcript records it. A file dropped on
 * the chat is attached the same way; a dropped file outside the workspace is refused.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame } from 'playwright-core';
import { domText, onTestFailure, openWorkbench, runCommand, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { chatFrame, chatFrameHandle } from './chat-harness';
import { docScreenshot, makePepeHome, pickItem, waitForQuickInputClosed } from './pepe-ui';

const MARKER = 'the launch code is PELICAN-4417';
const OUTSIDE_MARKER = 'outside secret FALCON-9001';

/** The user messages of an agent's sessions, from the transcripts on disk. */
function userMessages(home: string, agent: string): string[] {
  const dir = path.join(home, 'sessions', agent);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as { message?: { role?: string; content?: string }; role?: string; content?: string })
    .map((r) => r.message ?? r)
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content));
}

/** Drops `uris` on the chat as VS Code hands a Shift+drop to a webview (text/uri-list). */
async function drop(frame: Frame, uris: string[]): Promise<void> {
  await frame.evaluate((list) => {
    const data = new DataTransfer();
    data.setData('text/uri-list', list.join('\r\n'));
    const target = document.querySelector('#transcript')!;
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, uris);
}

describe('e2e: context attached from the editor to a chat turn', function () {
  let wb: Workbench | undefined;
  let home: string;
  let workspace: string;
  let outside: string;

  before(async function () {
    workspace = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-ctx-ws-'));
    outside = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-ctx-out-'));
    writeFileSync(path.join(workspace, 'notes.md'), `# Notes\n\n${MARKER}\n`);
    writeFileSync(path.join(workspace, 'dropped.txt'), 'dropped content DROP-7\n');
    writeFileSync(path.join(outside, 'secret.txt'), `${OUTSIDE_MARKER}\n`);
    home = makePepeHome({});
    const script = path.join(home, 'echo.json');
    writeFileSync(script, JSON.stringify({ steps: [{ echo_prompt: true }, { echo_prompt: true }, { echo_prompt: true }] }));
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ agents: { reader: { model: `mock:${script}` } } }, null, 2));
    wb = await openWorkbench({ env: { PEPE_HOME: home }, workspace });
    await waitForWorkbench(wb.page);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    for (const dir of [home, workspace, outside]) rmSync(dir, { recursive: true, force: true });
  });

  it('@file attaches a file to the next turn: the model sees its content and the transcript records it', async function () {
    const page = wb!.page;
    await runCommand(page, 'Pepe: Open Chat');
    const chat = chatFrame(page);
    const input = chat.locator('#input');
    await input.waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor(async () => ((await input.getAttribute('placeholder'))?.includes('reader') ? true : undefined), { timeoutMs: 30_000, what: 'the chat panel for reader' });

    // Typing "@fi" offers @file; Enter picks it and the host asks which file.
    await input.click();
    await input.pressSequentially('@fi');
    await chat.locator('#mentions .mention.active[data-kind="file"]').waitFor({ state: 'visible', timeout: 10_000 });
    await docScreenshot(page, 'chat-mentions.png');
    await input.press('Enter');
    await pickItem(page, 'notes.md');
    await waitForQuickInputClosed(page);
    const chip = chat.locator('.composer .attachments .chip[data-kind="file"]');
    await chip.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(domText(await chip.innerText()).trim(), 'notes.md');
    assert.equal(await input.inputValue(), '', 'the typed @fi is replaced by the chip');
    // The keyboard is back in the message input after the pick: what is typed next lands there.
    await waitFor(async () => ((await (await chatFrameHandle(page)).evaluate(() => document.hasFocus() && document.activeElement?.id === 'input')) ? true : undefined), { timeoutMs: 30_000, what: 'the chat input to have the keyboard after the @file pick' });
    await page.keyboard.type('what does the file say?');
    assert.equal(await input.inputValue(), 'what does the file say?');
    await docScreenshot(page, 'chat-attached-file.png');
    await input.press('Enter');

    // The scripted model answers with its own prompt: the file's content is in it.
    const answer = chat.locator('.turn .msg.assistant').last();
    await waitFor(async () => (domText(await answer.innerText().catch(() => '')).includes(MARKER) ? true : undefined), { timeoutMs: 60_000, what: "the file's content in the model's prompt" });
    assert.ok(domText(await answer.innerText()).includes('<attached-context kind="file" label="notes.md">'));
    // The message shows what went with it; the composer has no chip left.
    await chat.locator('.msg.user .attachments.sent .chip[data-kind="file"]').last().waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await chip.count(), 0);
    // The transcript on disk records what the model was given.
    const recorded = userMessages(home, 'reader');
    assert.ok(recorded.some((m) => m.startsWith('what does the file say?') && m.includes('<attached-context kind="file" label="notes.md">') && m.includes(MARKER)), recorded.join('\n---\n'));
  });

  it('Add Selection to Pepe Chat attaches the editor\'s selection to the chat', async function () {
    const page = wb!.page;
    await page.keyboard.press('Control+P');
    const quick = page.locator('.quick-input-widget .quick-input-box input');
    await quick.waitFor({ state: 'visible', timeout: 30_000 });
    await quick.fill('notes.md');
    const focused = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await waitFor(async () => (domText(await focused.innerText().catch(() => '')).trim() === 'notes.md' ? true : undefined), { timeoutMs: 30_000, what: 'notes.md in quick open' });
    await page.keyboard.press('Enter');
    await waitForQuickInputClosed(page);
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+A');
    await runCommand(page, 'Pepe: Add Selection to Pepe Chat');
    const chat = chatFrame(page);
    const chip = chat.locator('.composer .attachments .chip[data-kind="selection"]');
    await chip.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(domText(await chip.innerText()).trim(), 'notes.md:1-3');
    const input = chat.locator('#input');
    await input.fill('explain the selection');
    await input.press('Enter');
    const answer = chat.locator('.turn .msg.assistant').last();
    await waitFor(async () => {
      const text = domText(await answer.innerText().catch(() => ''));
      return text.includes('<attached-context kind="selection" label="notes.md:1-3">') && text.includes(MARKER) ? true : undefined;
    }, { timeoutMs: 60_000, what: 'the selection in the prompt' });
  });

  it('a file dropped on the chat is attached; one outside the workspace is refused', async function () {
    const page = wb!.page;
    const chat = chatFrame(page);
    const frame = await chatFrameHandle(page);
    // The attack first: a drop naming a file outside the workspace gets no chip and a notice.
    await drop(frame, [pathToFileURL(path.join(outside, 'secret.txt')).href]);
    const refused = chat.locator('.notice').filter({ hasText: 'Not attached' }).last();
    await refused.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(domText(await refused.innerText()), /outside the workspace/);
    assert.equal(await chat.locator('.composer .attachments .chip').count(), 0);

    await drop(frame, [pathToFileURL(path.join(workspace, 'dropped.txt')).href]);
    const chip = chat.locator('.composer .attachments .chip[data-kind="file"]');
    await chip.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(domText(await chip.innerText()).trim(), 'dropped.txt');
    const input = chat.locator('#input');
    await input.fill('and this one?');
    await input.press('Enter');
    const answer = chat.locator('.turn .msg.assistant').last();
    await waitFor(async () => (domText(await answer.innerText().catch(() => '')).includes('DROP-7') ? true : undefined), { timeoutMs: 60_000, what: 'the dropped file in the prompt' });
    const recorded = userMessages(home, 'reader').join('\n');
    assert.ok(!recorded.includes(OUTSIDE_MARKER), 'the outside file never reached the model');
  });
});
