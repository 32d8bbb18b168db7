/**
 * Acceptance (issue 6): an agent turn (scripted mock model) calling `bash` raises the modal with
 * the exact command; "Allow once" → the `Pepe: <agent>` terminal shows the command, its output
 * and exit status, and the tool result in the transcript carries the same output. Escape → the
 * tool result is a denial and no process ran.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { dialogMessage, onTestFailure, openViewContainer, openWorkbench, runCommand, waitFor, waitForDialog, clickDialogButton, waitForTerminalText, waitForWorkbench, domText, type Workbench } from '../vscode/harness';
import { chatFrame, chatFrameHandle } from './chat-harness';
import { docScreenshot, makePepeHome, pickItem, typeIntoFocusedInput, waitForQuickInputClosed, waitForTreeRow, watchQuickInput } from './pepe-ui';

/** The tool messages of an agent's sessions, from the transcripts on disk. */
function toolResults(home: string, agent: string): string[] {
  const dir = path.join(home, 'sessions', agent);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as { role?: string; content?: string; message?: { role?: string; content?: string } })
    .map((r) => r.message ?? r)
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content));
}

describe('e2e: the permission barrier as a modal, the sandbox in the terminal', function () {
  let wb: Workbench | undefined;
  let home: string;
  let workspace: string;

  before(async function () {
    const scripts = makePepeHome({});
    home = scripts;
    const script = (file: string) => {
      const p = path.join(home, `${file}.json`);
      // A redirection is a write: the barrier asks even though a person is present (spec 5.1).
      writeFileSync(p, JSON.stringify({ steps: [{ tool_calls: [{ name: 'bash', arguments: { command: `echo hello-from-pepe > ${file}.txt && cat ${file}.txt` } }] }, { text: 'done' }] }));
      return p;
    };
    // Two commands with the same risk (a write): a task grant given on the first covers the second.
    const twice = path.join(home, 'twice.json');
    const call = (file: string) => ({ tool_calls: [{ name: 'bash', arguments: { command: `echo scoped > ${file}` } }] });
    writeFileSync(twice, JSON.stringify({ steps: [call('scoped-1.txt'), call('scoped-2.txt'), { text: 'done' }] }));
    writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({ agents: { ops: { model: `mock:${script('allowed')}` }, guarded: { model: `mock:${script('denied')}` }, scoped: { model: `mock:${twice}` } } }, null, 2),
    );
    wb = await openWorkbench({ env: { PEPE_HOME: home } });
    workspace = wb.server.workspace;
    await waitForWorkbench(wb.page);
    // The extension is loaded (its commands are in the palette) once its view container shows.
    await openViewContainer(wb.page, 'Pepe', 90_000);
    await waitForTreeRow(wb.page, 'Agents', /^ops\b/, 60_000);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    rmSync(home, { recursive: true, force: true });
  });

  async function startTurn(agent: string): Promise<void> {
    const page = wb!.page;
    await runCommand(page, 'Pepe: Switch Agent…');
    await pickItem(page, agent);
    await waitForQuickInputClosed(page);
    await runCommand(page, 'Pepe: Open Chat');
    // With several agents Open Chat asks which one, the active agent first.
    await pickItem(page, agent);
    await waitForQuickInputClosed(page);
    // The message is typed in the agent's chat panel as a person would.
    const input = chatFrame(page).locator('#input');
    await input.waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor(async () => ((await input.getAttribute('placeholder'))?.includes(agent) ? true : undefined), { timeoutMs: 30_000, what: `the chat panel for ${agent}` });
    await input.fill('please run it');
    await input.press('Enter');
  }

  it('Allow once: the command runs in "Pepe: ops" with its output and exit status; the tool result carries the same output', async function () {
    const page = wb!.page;
    await startTurn('ops');
    const message = await waitForDialog(page, 60_000);
    // Readable at a glance (issue 26): who wants to do what, the command once, three buttons.
    assert.equal(message, `ops wants to run a command in ${path.basename(workspace)}`);
    const detail = domText(await page.locator('.monaco-dialog-box .dialog-message-detail').innerText());
    assert.equal(detail.split('echo hello-from-pepe > allowed.txt && cat allowed.txt').length - 1, 1, `the command is shown exactly once: ${detail}`);
    assert.ok(detail.includes(`Run a shell command in ${workspace}`), detail);
    assert.ok(!/Arguments:|Chain:|inline_eval|"command"/.test(detail), `no internal words or JSON: ${detail}`);
    // Three buttons (VS Code lays them out in its own order; Allow once is the first given, what Enter picks).
    const buttons = (await page.locator('.monaco-dialog-box .dialog-buttons .monaco-button').allInnerTexts()).map((t) => domText(t).trim());
    assert.deepEqual([...buttons].sort(), ['Allow once', 'Allow…', 'Deny…'].sort());
    await docScreenshot(page, 'approval-modal.png');
    await clickDialogButton(page, 'Allow once');

    const text = await waitForTerminalText(page, /\[exit status 0\]/, 60_000);
    assert.ok(text.includes(`$ bash -c 'echo hello-from-pepe > allowed.txt && cat allowed.txt'`), text);
    assert.match(text, /^hello-from-pepe$/m);
    const tabs = await page.locator('.terminal-tabs-entry, .single-terminal-tab, .terminal-tab').allInnerTexts().catch(() => []);
    assert.ok(tabs.join(' ').includes('Pepe: ops') || (await page.getByText('Pepe: ops').count()) > 0, `no "Pepe: ops" terminal: ${tabs.join(' | ')}`);
    await docScreenshot(page, 'sandbox-terminal.png');
    const results = await waitFor(() => (toolResults(home, 'ops').length ? toolResults(home, 'ops') : undefined), { timeoutMs: 30_000, what: 'the tool result in the transcript' });
    assert.equal(results[0], 'exit status 0\nhello-from-pepe\n');
    assert.ok(existsSync(path.join(workspace, 'allowed.txt')));
  });

  it('Escape: the tool result is a denial and no process ran', async function () {
    const page = wb!.page;
    await startTurn('guarded');
    const message = await waitForDialog(page, 60_000);
    assert.match(message, /^guarded wants to run a command in /);
    await page.keyboard.press('Escape');
    await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 30_000 });
    // Escape is "Deny…": the optional reason; Escape again denies without one.
    await page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.press('Escape');
    const results = await waitFor(() => (toolResults(home, 'guarded').length ? toolResults(home, 'guarded') : undefined), { timeoutMs: 30_000, what: 'the tool result in the transcript' });
    assert.match(results[0]!, /denied/i);
    assert.ok(!existsSync(path.join(workspace, 'denied.txt')), 'the denied command ran');
  });

  it('Allow…: the wider scopes in a list, each explained; a wide one asks to confirm, and cancelling goes back to the dialog', async function () {
    const page = wb!.page;
    await startTurn('scoped');
    assert.match(await waitForDialog(page, 60_000), /^scoped wants to run a command in /);
    await clickDialogButton(page, 'Allow…');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
    // Each row: its label, then the line that says what it covers (both are .label-name in the DOM).
    const texts = (await page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name').allInnerTexts()).map((t) => domText(t).trim());
    const labels = ['For the rest of this task', 'This exact call, this session', 'These risks, this session', 'Always, for these risks', 'Any arguments, this session', 'Always, any arguments', 'Stop asking about scoped'];
    assert.deepEqual(texts.filter((t) => labels.includes(t)), labels);
    assert.ok(texts.includes('bash calls whose only risks are write, until this task ends'), texts.join(' | '));
    // The wide ones carry a warning icon.
    assert.equal(await page.locator('.quick-input-widget .quick-input-list .monaco-list-row .codicon-warning').count(), 3);
    await docScreenshot(page, 'approval-scopes.png');
    // A wide one is confirmed in the next step of the same input, which stays open with the
    // keyboard; its first choice, what Enter picks, goes back.
    const flow = await watchQuickInput(page, 'Allow for longer');
    await pickItem(page, 'Stop asking about scoped');
    await waitFor(async () => (domText(await page.locator('.quick-input-widget .quick-input-title').innerText()).includes('Stop asking about scoped?') ? true : undefined), { timeoutMs: 30_000, what: 'the confirmation step' });
    // The two choices, the second with its line (a row's detail is a .label-name too); read once the
    // list has been redrawn for this step.
    // Only what is shown: a row without a detail keeps the previous list's detail, hidden.
    const rowTexts = async () =>
      (await page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name').evaluateAll((els) => els.filter((e) => (e as HTMLElement).getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden').map((e) => (e as HTMLElement).innerText))).map((t) => domText(t).trim());
    const confirm = await waitFor(async () => {
      const t = await rowTexts();
      return t.length === 3 && t[0] === 'No, back to the question' ? t : undefined;
    }, { timeoutMs: 15_000, what: 'the two choices of the confirmation' }).catch(async () => rowTexts());
    assert.deepEqual(confirm.slice(0, 2), ['No, back to the question', 'Yes: Stop asking about scoped'], confirm.join(' | '));
    assert.ok(confirm[2]?.startsWith('This allows every call of scoped'), confirm.join(' | '));
    assert.equal(await flow.closes(), 0, `the input closed between the scope and its confirmation: ${await flow.log()}`);
    await typeIntoFocusedInput(page, '');
    // Not confirmed: nothing was granted, the approval is asked again.
    assert.match(await waitForDialog(page, 30_000), /^scoped wants to run a command in /);
    await clickDialogButton(page, 'Allow…');
    await pickItem(page, 'For the rest of this task');
    // Back in the chat: the input has the keyboard again.
    await waitFor(async () => ((await (await chatFrameHandle(page)).evaluate(() => document.hasFocus() && document.activeElement?.id === 'input')) ? true : undefined), { timeoutMs: 30_000, what: 'the chat input to have the keyboard after the approval' });
    await waitFor(() => existsSync(path.join(workspace, 'scoped-2.txt')) || undefined, { timeoutMs: 60_000, what: 'the second command, covered by the task grant, to run unasked' });
    assert.ok(existsSync(path.join(workspace, 'scoped-1.txt')));
    assert.equal(await dialogMessage(page), undefined, 'the second command was not asked');
  });

  it('Open Chat for an agent whose chat is open reveals that tab instead of opening another', async function () {
    const page = wb!.page;
    const editorTabs = async (title: string) => (await page.locator('.tabs-container .tab .label-name').allInnerTexts()).map((t) => domText(t).trim()).filter((t) => t === title).length;
    assert.equal(await editorTabs('Pepe: ops'), 1, 'one chat tab for ops before');
    await runCommand(page, 'Pepe: Open Chat');
    await pickItem(page, 'ops');
    await waitForQuickInputClosed(page);
    assert.equal(await editorTabs('Pepe: ops'), 1, 'Open Chat opened a second tab for ops');
  });
});
