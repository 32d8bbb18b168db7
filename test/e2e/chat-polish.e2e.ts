/**
 * Acceptance (issue 26) in the real workbench: the chat follows the conversation (Jump to latest
 * when the person scrolled up), the empty chat says what its agent can do with example prompts,
 * edits are reviewed beside the chat and said in words, known failures are one line with the
 * button that fixes them (and the Agents tree marks the agent), checkpoints are named by the
 * message that started their turn. One workbench for the file; each test picks its agent.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { answerProposedChange, domText, onTestFailure, openViewContainer, openWorkbench, runCommand, sleep, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { buildChatTestExtension, chatFrame, chatFrameHandle, OPEN_PANEL } from './chat-harness';
import { answerInput, docScreenshot, makePepeHome, pickItem, treeRows, waitForQuickInputClosed } from './pepe-ui';

const LONG = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
const PRICES = 'def price(x):\n    return round(x)\n';
const PRICES_FIXED = 'from decimal import Decimal, ROUND_HALF_UP\n\ndef price(x):\n    return Decimal(x).quantize(Decimal("0.01"), ROUND_HALF_UP)\n';

function sseAnswer(text: string): string {
  const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return chunk({ role: 'assistant', content: '' }) + chunk({ content: text }) + chunk({}, 'stop') + 'data: [DONE]\n\n';
}

describe('e2e: chat polish (issue 26)', function () {
  let wb: Workbench | undefined;
  let home: string;
  let workspace: string;
  let page: Page;
  let server: Server;

  before(async function () {
    workspace = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-polish-ws-'));
    writeFileSync(path.join(workspace, 'prices.py'), PRICES);
    writeFileSync(path.join(workspace, 'README.md'), '# Prices\n');
    // A loopback OpenAI-compatible server: the right key gets an answer, any other a 401; an
    // unknown path (a model the server does not have) a 404.
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (!req.url?.startsWith('/v1/')) {
          res.writeHead(404, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { message: 'The model `ghost` does not exist', type: 'invalid_request_error' } }));
        }
        if (req.headers.authorization !== 'Bearer right-key') {
          res.writeHead(401, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sseAnswer('The key works now.'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    home = makePepeHome({});
    const script = (name: string, steps: unknown[]) => {
      const p = path.join(home, `${name}.json`);
      writeFileSync(p, JSON.stringify({ steps }));
      return `mock:${p}`;
    };
    const config = {
      models: {
        keyed: { provider: 'openai-compatible', model: 'm', base_url: `${base}/v1`, api_key_env: 'KEYED_API_KEY' },
        ghost: { provider: 'openai-compatible', model: 'ghost', base_url: `${base}/missing/v1` },
      },
      mcp_servers: { docs: { command: process.execPath, args: ['-e', ''], disabled: true } },
      agents: {
        guide: {
          model: script('guide', [{ text: 'Here is the folder: prices.py and README.md. GUIDE-DONE' }]),
          tools: ['read_file', 'list_dir', 'send_to_agent'],
          can_message: ['ops'],
          mcp: ['docs'],
        },
        talker: {
          model: script('talker', [
            { text: `${LONG} END-ONE`, delay_ms: 5, chunk_size: 40 },
            { text: `${LONG} ${LONG} END-TWO`, delay_ms: 30, chunk_size: 20 },
          ]),
          tools: [],
        },
        ops: {
          model: script('ops', [
            { tool_calls: [{ name: 'bash', arguments: { command: `echo checked-${'0123456789'.repeat(60)}` } }] },
            { text: `The command ran. ${LONG} END-OPS` },
          ]),
          tools: ['bash'],
        },
        editor: {
          model: script('editor', [
            { tool_calls: [{ name: 'edit_file', arguments: { path: 'prices.py', edits: [{ search: 'def price(x):\n    return round(x)\n', replace: PRICES_FIXED }] } }] },
            { text: 'Rounded to cents.' },
          ]),
          tools: ['edit_file'],
        },
        keyed: { model: 'keyed', tools: [] },
        lost: { model: 'ghost', tools: [] },
      },
    };
    writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
    const extension = await buildChatTestExtension();
    wb = await openWorkbench({ env: { PEPE_HOME: home, KEYED_API_KEY: 'wrong-key' }, workspace, extensionDevelopmentPath: extension, settings: { 'workbench.colorTheme': 'Default Light Modern', 'files.autoSave': 'off' } });
    page = wb.page;
    await waitForWorkbench(page);
    await openViewContainer(page, 'Pepe');
    await runCommand(page, OPEN_PANEL);
    await chatFrameHandle(page, 60_000);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  const chat = () => chatFrame(page);
  const transcriptText = async () => domText(await chat().locator('#transcript').innerText());

  async function pickAgent(agent: string): Promise<void> {
    await chat().locator('#agent').selectOption(agent);
    await waitFor(async () => (await chat().locator('#agent').inputValue()) === agent && (await chat().locator('#input').getAttribute('placeholder'))?.includes(agent), { timeoutMs: 20_000, what: `agent ${agent} picked` });
  }

  async function send(text: string): Promise<void> {
    const input = chat().locator('#input');
    await input.fill(text);
    await input.press('Enter');
  }

  async function waitIdle(timeoutMs = 60_000): Promise<void> {
    await waitFor(async () => (await chat().locator('button[data-action="send"]').isVisible()) && (await chat().locator('.msg.streaming').count()) === 0, { timeoutMs, what: 'the turn to end' });
  }

  /** How far the transcript's bottom is below what is shown (0: the newest content is in view). */
  async function belowFold(): Promise<number> {
    const frame = await chatFrameHandle(page);
    return frame.evaluate(() => {
      const t = document.getElementById('transcript')!;
      return Math.max(0, t.scrollHeight - t.clientHeight - t.scrollTop);
    });
  }

  /** Whether the chat's message input has the keyboard (the webview focused, the input in it). */
  async function inputHasKeyboard(): Promise<boolean> {
    const frame = await chatFrameHandle(page);
    return frame.evaluate(() => document.hasFocus() && document.activeElement?.id === 'input');
  }

  async function waitForInputKeyboard(after: string): Promise<void> {
    await waitFor(async () => ((await inputHasKeyboard()) ? true : undefined), { timeoutMs: 30_000, what: `the chat input to have the keyboard after ${after}` });
  }

  async function setTheme(theme: string, bodyClass: string): Promise<void> {
    await runCommand(page, 'Preferences: Color Theme');
    await pickItem(page, theme);
    await waitFor(async () => (await page.locator(`.monaco-workbench.${bodyClass}`).count()) > 0, { timeoutMs: 30_000, what: `the theme ${theme}` });
    await waitForQuickInputClosed(page);
    await sleep(500);
  }

  it('the empty chat says what the agent can do, offers three example prompts and the hints; an example sends', async function () {
    await pickAgent('guide');
    const empty = chat().locator('[data-kind="empty-state"]');
    await empty.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(domText(await empty.locator('[data-kind="agent-can"]').innerText()), 'Tools: read_file, list_dir · Consults: ops · MCP: docs');
    const examples = empty.locator('button[data-action="send-example"]');
    assert.equal(await examples.count(), 3);
    const first = domText(await examples.first().innerText()).trim();
    assert.equal(first, 'What is in this folder? Give me a short overview.');
    const hints = domText(await empty.locator('.empty-hints').innerText());
    assert.match(hints, /@ attaches a file/);
    assert.match(hints, /\/ lists the commands/);
    assert.match(hints, /Plan: the agent only reads/);
    await docScreenshot(page, 'chat-empty-light.png');
    await setTheme('Dark Modern', 'vs-dark');
    await docScreenshot(page, 'chat-empty-dark.png');
    await setTheme('Dark High Contrast', 'hc-black');
    await docScreenshot(page, 'chat-empty-hc.png');
    await setTheme('Light Modern', 'vs');

    await examples.first().click();
    await waitFor(async () => ((await transcriptText()).includes('GUIDE-DONE') ? true : undefined), { timeoutMs: 60_000, what: "the example's answer" });
    assert.equal(domText(await chat().locator('.msg.user .msg-text').first().innerText()), first);
    assert.equal(await empty.isVisible(), false, 'the empty state stays over the conversation');
    await waitIdle();
  });

  it('follows a long answer to its end; scrolled up, it stays put and offers Jump to latest', async function () {
    await pickAgent('talker');
    await send('say a lot');
    await waitFor(async () => ((await transcriptText()).includes('END-ONE') ? true : undefined), { timeoutMs: 60_000, what: 'the first answer' });
    await waitIdle();
    await sleep(300);
    assert.ok((await belowFold()) <= 2, `the newest content is below the fold by ${await belowFold()} px after the turn`);
    const jump = chat().locator('button[data-action="jump-latest"]');
    assert.equal(await jump.isVisible(), false);

    await send('say even more');
    await waitFor(async () => ((await transcriptText()).includes('word50') ? true : undefined), { timeoutMs: 60_000, intervalMs: 50, what: 'the second answer to stream' });
    // The person scrolls up with the wheel while the answer streams.
    const box = (await page.locator('iframe.webview.ready').last().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -400);
    await jump.waitFor({ state: 'visible', timeout: 10_000 });
    const frame = await chatFrameHandle(page);
    const topWhileUp = await frame.evaluate(() => document.getElementById('transcript')!.scrollTop);
    await waitFor(async () => ((await transcriptText()).includes('END-TWO') ? true : undefined), { timeoutMs: 90_000, what: 'the second answer to finish' });
    await waitIdle();
    const topAfter = await frame.evaluate(() => document.getElementById('transcript')!.scrollTop);
    assert.ok(Math.abs(topAfter - topWhileUp) < 50, `the transcript moved from ${topWhileUp} to ${topAfter} while the person read above`);
    assert.ok((await belowFold()) > 200, 'the person scrolled up, yet the view is at the bottom');
    assert.equal(await jump.isVisible(), true);
    await jump.click();
    await waitFor(async () => ((await belowFold()) <= 2 ? true : undefined), { timeoutMs: 10_000, what: 'the jump to the newest content' });
    assert.equal(await jump.isVisible(), false);
  });

  it('after a command runs in the terminal, the answer that follows is in view', async function () {
    await pickAgent('ops');
    // A harmless command runs unasked while the person is present: straight into the terminal.
    await send('run the command');
    await waitFor(async () => ((await transcriptText()).includes('END-OPS') ? true : undefined), { timeoutMs: 60_000, what: "ops's answer" });
    await waitIdle();
    await sleep(300);
    assert.ok((await belowFold()) <= 2, `the answer after the command is below the fold by ${await belowFold()} px`);
    // The command wrote nothing: the turn does not say it changed files.
    assert.equal(await chat().locator('[data-kind="turn-checkpoint"]').count(), 0);
    // Its long one-line output wraps inside the card instead of running off to the side.
    const output = chat().locator('details.card[data-tool="bash"] pre.card-output').last();
    await chat().locator('details.card[data-tool="bash"]').last().evaluate((d) => ((d as HTMLDetailsElement).open = true));
    const fits = await output.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, text: el.textContent ?? '' }));
    assert.ok(fits.text.includes('checked-0123456789'), fits.text);
    assert.ok(fits.scroll <= fits.client + 1, `the output is ${fits.scroll} px wide in a ${fits.client} px card`);
    // The terminal did not keep the keyboard: what is typed next goes to the chat.
    await waitForInputKeyboard('the command ran in the terminal');
  });

  it('an edit is reviewed beside the chat, said in words; Show changes opens the diff editor; the checkpoint is named by the message', async function () {
    await pickAgent('editor');
    await send('Fix the rounding in prices.py');
    // The diff opens in another editor group: the chat stays in view.
    await waitFor(async () => ((await page.locator('.tabs-container .tab[aria-label*="Accept or Reject"]').count()) > 0 ? true : undefined), { timeoutMs: 60_000, what: 'the diff' });
    assert.ok((await page.locator('.editor-group-container').count()) >= 2, 'the diff opened over the chat, not beside it');
    assert.ok(await page.locator('iframe.webview.ready').last().isVisible(), 'the chat is hidden behind the diff');
    // The notification (a toast, or in the notification centre once the toast has gone).
    const toast = page.locator('.notification-list-item-message', { hasText: 'editor wants to edit' }).first();
    const shown = await toast.waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false);
    if (!shown) await page.locator('.statusbar-item[id="status.notifications"]').first().click();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    const words = domText(await toast.innerText());
    assert.ok(words.startsWith('editor wants to edit prices.py: 1 change, +3 \u22121.'), words);
    assert.doesNotMatch(words, /Risks:|search\/replace|relative to/);
    await docScreenshot(page, 'edit-beside-chat.png');
    await answerProposedChange(page, 'Accept');
    await waitFor(() => (readFileSync(path.join(workspace, 'prices.py'), 'utf8') === PRICES_FIXED ? true : undefined), { timeoutMs: 30_000, what: 'the edit on disk' });
    await waitIdle();
    // Back from the diff: the answer after the edit is in view and the input has the keyboard.
    await waitFor(async () => ((await transcriptText()).includes('Rounded to cents.') ? true : undefined), { timeoutMs: 30_000, what: 'the answer after the edit' });
    await sleep(300);
    assert.ok((await belowFold()) <= 2, `the answer after the diff is below the fold by ${await belowFold()} px`);
    await waitForInputKeyboard('the diff was accepted');

    const card = chat().locator('details.card[data-tool="edit_file"]').first();
    assert.equal(domText(await card.locator('[data-kind="change-summary"]').innerText()).trim(), 'edit prices.py: 1 change, +3 \u22121');
    const cardText = domText(await card.innerText());
    assert.match(cardText, /Approval asked: edit prices\.py: 1 change, \+3 \u22121\./);
    assert.doesNotMatch(cardText, /search\/replace block|relative to/);
    assert.doesNotMatch(cardText, /"edits"|"search"|"replace"/, 'the card shows the raw JSON');
    await chat().locator('[data-kind="turn-checkpoint"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(domText(await chat().locator('[data-kind="turn-checkpoint"]').innerText()), /This turn changed 1 file\./);

    await card.locator('[data-action="show-change"]').click();
    await waitFor(async () => {
      const tabs = (await page.locator('.tabs-container .tab').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).map(domText);
      return tabs.some((t) => t.includes('prices.py: before this turn ↔ now')) ? true : undefined;
    }, { timeoutMs: 30_000, what: "VS Code's diff editor for the turn's change" });
    await waitFor(async () => {
      const diff = domText(await page.locator('.monaco-diff-editor').last().innerText().catch(() => ''));
      return diff.includes('ROUND_HALF_UP') ? true : undefined;
    }, { timeoutMs: 30_000, what: 'the file as it is now in the diff' });
    // The left side is the file as the checkpoint before the turn holds it (read when VS Code asks).
    await waitFor(async () => {
      const original = domText(await page.locator('.monaco-diff-editor .editor.original').last().innerText().catch(() => ''));
      return original.includes('return round(x)') ? true : undefined;
    }, { timeoutMs: 30_000, what: 'the file as it was before the turn in the diff' });
    assert.equal(await page.locator('.tabs-container .tab[aria-label*=".diff"]').count(), 0, 'a raw .diff file opened');

    await runCommand(page, 'Pepe: Restore Checkpoint…');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    const labels = await waitFor(async () => {
      const all = (await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText))).map(domText);
      // (the palette's own rows first, then the picker's)
      const picker = all.filter((l) => !l.startsWith('Pepe: '));
      return picker.some((l) => l.includes('before “')) ? picker : undefined;
    }, { timeoutMs: 30_000, what: 'the checkpoint list' });
    assert.ok(labels[0]!.includes('before “Fix the rounding in prices.py”') && labels[0]!.includes('editor'), labels.join(' | '));
    assert.ok(!labels.some((l) => l.includes('run the command')), `a turn that changed nothing is listed: ${labels.join(' | ')}`);
    assert.ok(!labels.some((l) => /^[0-9a-f]{12}\b/.test(l.trim())), 'a checkpoint is listed by its hash');
    // Close the picker: its input has the keyboard once it is shown (Escape again if it was not yet).
    const widget = page.locator('.quick-input-widget').first();
    for (let i = 0; i < 5 && (await widget.isVisible()); i++) {
      await page.locator('.quick-input-widget .quick-input-box input').first().focus().catch(() => undefined);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(300);
    }
    await waitForQuickInputClosed(page);
  });

  it('the focus keybinding from the editor brings back the chat with the keyboard in its input, in the same tab', async function () {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, OPEN_PANEL);
    await chatFrameHandle(page, 60_000);
    await pickAgent('guide');
    const chatTabs = async () => (await page.locator('.tabs-container .tab .label-name').allInnerTexts()).map((t) => domText(t).trim()).filter((t) => t.startsWith('Pepe: ')).length;
    const before = await chatTabs();
    // A file in the editor has the keyboard.
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.type('README.md');
    const focused = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await waitFor(async () => (domText(await focused.innerText().catch(() => '')).trim() === 'README.md' ? true : undefined), { timeoutMs: 30_000, what: 'README.md in quick open' });
    await page.keyboard.press('Enter');
    await waitForQuickInputClosed(page);
    await waitFor(async () => (await page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'))) || undefined, { timeoutMs: 30_000, what: 'the editor to have the keyboard' });
    await page.keyboard.press('Control+Alt+P');
    await waitForInputKeyboard('the focus keybinding');
    await page.keyboard.type('typed straight away');
    assert.equal(await chat().locator('#input').inputValue(), 'typed straight away');
    assert.equal(await chatTabs(), before, 'the keybinding opened another chat tab');
    await chat().locator('#input').fill('');
  });

  it('a refused key: one line, Set API Key… stores the right one and Retry answers; the Agents tree marks the agent meanwhile', async function () {
    // From a clean editor area (the diffs of the test before closed): the chat alone.
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, OPEN_PANEL);
    await chatFrameHandle(page, 60_000);
    await pickAgent('keyed');
    await send('hello keyed');
    const failure = chat().locator('.notice.failure[data-failure="refused_key"]').last();
    await failure.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(domText(await failure.locator('.failure-line').innerText()), 'The server refused the API key in KEYED_API_KEY (model keyed).');
    const buttons = (await failure.locator('.failure-fixes button').allInnerTexts()).map((t) => domText(t).trim());
    assert.deepEqual(buttons, ['Set API Key…', 'Edit Model…', 'Retry']);
    // The raw detail is folded away, not shown.
    assert.equal(await failure.locator('details.failure-detail').getAttribute('open'), null);
    assert.equal(await failure.locator('.failure-raw').isVisible(), false);
    const row = await waitFor(async () => (await treeRows(page, 'Agents')).find((r) => r.startsWith('keyed:') && r.includes('last call failed')), { timeoutMs: 30_000, what: 'the Agents tree to mark keyed' });
    assert.match(row, /The server refused the API key in KEYED_API_KEY/);
    await docScreenshot(page, 'chat-error-fix.png');

    await failure.locator('button[data-action="set-api-key"]').click();
    await answerInput(page, 'right-key');
    await waitForQuickInputClosed(page);
    await failure.locator('button[data-action="retry"]').click();
    await waitFor(async () => ((await transcriptText()).includes('The key works now.') ? true : undefined), { timeoutMs: 60_000, what: 'the answer with the right key' });
    await waitIdle();
    await waitFor(async () => ((await treeRows(page, 'Agents')).some((r) => r.startsWith('keyed:') && !r.includes('last call failed')) ? true : undefined), { timeoutMs: 30_000, what: 'the mark to clear' });
  });

  it('an unknown model: one line and Edit Model… opens config.json at that model', async function () {
    await pickAgent('lost');
    await send('hello lost');
    const failure = chat().locator('.notice.failure[data-failure="unknown_model"]').last();
    await failure.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(domText(await failure.locator('.failure-line').innerText()), /^The server does not know this model \(model ghost\)/);
    await waitIdle();
    await failure.locator('button[data-action="edit-model"]').click();
    await waitFor(async () => (domText((await page.locator('.editor-group-container.active .tab.active').first().getAttribute('aria-label').catch(() => null)) ?? '').startsWith('config.json') ? true : undefined), { timeoutMs: 30_000, what: 'config.json opened' });
    // The cursor on the model's entry (the status bar says where it is once the editor settles).
    const text = () => readFileSync(path.join(home, 'config.json'), 'utf8').split('\n');
    const where = await waitFor(async () => {
      const t = domText(await page.locator('.statusbar-item[id="status.editor.selection"]').first().innerText().catch(() => ''));
      const lineNo = Number(/Ln (\d+)/.exec(t)?.[1]);
      return /"ghost":/.test(text()[lineNo - 1] ?? '') ? lineNo : undefined;
    }, { timeoutMs: 15_000, what: 'the cursor on the "ghost" entry of config.json' });
    assert.ok(where > 1);
  });
});
