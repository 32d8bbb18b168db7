/**
 * Acceptance (issue 7): the chat webview in a real workbench, with scripted mock agents.
 * One workbench for the whole file; each test leaves the panel idle for the next.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { clickDialogButton, domText, onTestFailure, openWorkbench, runCommand, sleep, waitFor, waitForDialog, waitForWorkbench, type Workbench } from '../vscode/harness';
import { buildChatTestExtension, chatFrame, chatFrameHandle, OPEN_PANEL } from './chat-harness';
import { answerInput, docScreenshot, makePepeHome, pickItem, waitForQuickInputClosed } from './pepe-ui';

const LONG = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');

describe('e2e: the chat webview', function () {
  let wb: Workbench | undefined;
  let home: string;
  let page: Page;

  before(async function () {
    home = makePepeHome({});
    const script = (name: string, steps: unknown[]) => {
      const p = path.join(home, `${name}.json`);
      writeFileSync(p, JSON.stringify({ steps }));
      return `mock:${p}`;
    };
    const config = {
      agents: {
        triage: {
          model: script('triage', [
            { text: 'Let me ask billing.', delay_ms: 20, chunk_size: 4, tool_calls: [{ name: 'send_to_agent', arguments: { to: 'billing', message: 'How long do refunds take?' } }] },
            { text: `Billing says: refunds take **five days**. ${LONG.slice(0, 600)} END-OF-TRIAGE`, delay_ms: 30, chunk_size: 3 },
          ]),
          tools: ['send_to_agent'],
          can_message: ['billing'],
        },
        billing: {
          model: script('billing', [
            { tool_calls: [{ name: 'list_dir', arguments: { path: '.' } }] },
            { text: 'Refunds take five days (billing).' },
          ]),
          tools: ['list_dir'],
        },
        ops: {
          model: script('ops', [
            { tool_calls: [{ name: 'bash', arguments: { command: 'echo hello-chat > chat-out.txt && cat chat-out.txt' } }] },
            { text: 'It ran.' },
            { tool_calls: [{ name: 'bash', arguments: { command: 'echo nope > chat-denied.txt' } }] },
            { text: 'It was denied.' },
          ]),
          tools: ['bash'],
        },
        streamer: {
          model: script('streamer', [
            { text: `${LONG} ${LONG} ${LONG}`, delay_ms: 40, chunk_size: 6 },
            { text: 'Second answer after stop.' },
          ]),
          tools: [],
        },
        evil: {
          model: script('evil', [
            {
              text: 'Look: <script>window.__pepePwned = 1</script> and <img src=x onerror="window.__pepePwned = 2"> and [click me](javascript:window.__pepePwned=3) and [docs](https://example.com/docs). ```\ncode\n```',
            },
          ]),
          tools: [],
        },
      },
    };
    writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
    const extension = await buildChatTestExtension();
    wb = await openWorkbench({ env: { PEPE_HOME: home }, extensionDevelopmentPath: extension, settings: { 'workbench.colorTheme': 'Default Light Modern' } });
    page = wb.page;
    await waitForWorkbench(page);
    await runCommand(page, OPEN_PANEL);
    await chatFrameHandle(page, 60_000);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    rmSync(home, { recursive: true, force: true });
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

  it('streams the answer, nests the routed call to billing with its steps, shows the final answer', async function () {
    await pickAgent('triage');
    await send('Where is my refund?');
    // Partial text: the answer is on screen before it is complete.
    const partial = await waitFor(async () => {
      const t = await transcriptText();
      return t.includes('Billing says') && !t.includes('END-OF-TRIAGE') ? t : undefined;
    }, { timeoutMs: 60_000, intervalMs: 100, what: 'a partial answer' });
    assert.ok(partial.includes('Billing says'));
    await waitFor(async () => (await transcriptText()).includes('END-OF-TRIAGE'), { timeoutMs: 60_000, what: 'the final answer' });
    await waitIdle();

    const route = chat().locator('details.card.route');
    assert.equal(await route.count(), 1);
    const routeText = domText(await route.innerText());
    assert.match(routeText, /billing/);
    assert.ok(routeText.includes('How long do refunds take?'), routeText);
    // billing's own steps, nested inside the routed block: its list_dir call and its answer.
    assert.equal(await route.locator('.route-steps details.card.tool[data-tool="list_dir"]').count(), 1);
    assert.ok(domText(await route.locator('.route-steps .msg.assistant').innerText()).includes('Refunds take five days (billing).'));
    // Markdown rendered: **five days** is bold.
    assert.equal(await chat().locator('.msg.assistant strong', { hasText: 'five days' }).count(), 1);
    await docScreenshot(page, 'chat-light.png');
  });

  it('bash: the modal asks; Allow once → the card shows the exact output and exit status; a denial shows the denial', async function () {
    await pickAgent('ops');
    await send('run it');
    const message = await waitForDialog(page, 60_000);
    assert.match(message, /^ops wants to run a command in /);
    // The modal and the webview's card are two surfaces told in turn; on a busy machine the card may
    // paint a moment after the dialog is up, so wait for it rather than count at once.
    await waitFor(async () => (await chat().locator('details.card[data-tool="bash"][data-status="approval"]').count()) === 1, { timeoutMs: 20_000, what: 'the bash card awaiting approval' });
    await clickDialogButton(page, 'Allow once');
    const card = chat().locator('details.card[data-tool="bash"]').first();
    await waitFor(async () => (await card.getAttribute('data-status')) === 'ok', { timeoutMs: 60_000, what: 'the bash card to finish' });
    assert.equal(domText(await card.locator('.card-output').innerText()).trim(), 'hello-chat');
    assert.equal(await card.locator('.badge.exit').getAttribute('data-exit'), '0');
    assert.match(domText(await card.locator('.approval.allowed').innerText()), /Allowed once by you/);
    await waitIdle();
    // The dialog had the keyboard; afterwards what the person types lands in the chat input (issue 26).
    await waitFor(async () => (await (await chatFrameHandle(page)).evaluate(() => document.activeElement?.id)) === 'input' || undefined, { timeoutMs: 15_000, what: 'the input to have the keyboard again after the approval' });
    await page.keyboard.type('typed after');
    assert.equal(await chat().locator('#input').inputValue(), 'typed after');
    await chat().locator('#input').fill('');

    await send('and again');
    await waitForDialog(page, 60_000);
    await clickDialogButton(page, 'Deny…');
    await answerInput(page, 'not now');
    const denied = chat().locator('details.card[data-tool="bash"]').nth(1);
    await waitFor(async () => (await denied.getAttribute('data-status')) === 'denied', { timeoutMs: 60_000, what: 'the denied card' });
    assert.match(domText(await denied.locator('.approval.denied').innerText()), /Denied by you/);
    await waitIdle();
    assert.ok(!existsSync(path.join(wb!.server.workspace, 'chat-denied.txt')), 'the denied command ran');
  });

  it('Stop ends a long answer; sending again works', async function () {
    await pickAgent('streamer');
    await send('talk a lot');
    await waitFor(async () => (await transcriptText()).includes('word20'), { timeoutMs: 60_000, intervalMs: 100, what: 'streaming to start' });
    await chat().locator('button[data-action="stop"]').click();
    await waitFor(async () => (await chat().locator('.notice[data-kind="turn-cancelled"]').count()) === 1, { timeoutMs: 30_000, what: 'the cancelled notice' });
    await waitIdle();
    assert.ok(!(await transcriptText()).includes('word399 word0'), 'the whole answer arrived: Stop did nothing');
    await send('again please');
    await waitFor(async () => (await transcriptText()).includes('Second answer after stop.'), { timeoutMs: 60_000, what: 'the next answer' });
    await waitIdle();
  });

  it('a model answer with <script>, <img onerror> and a javascript: link renders inert', async function () {
    await pickAgent('evil');
    await send('show me');
    await waitFor(async () => (await transcriptText()).includes('click me'), { timeoutMs: 60_000, what: 'the answer' });
    await waitIdle();
    const frame = await chatFrameHandle(page);
    await sleep(300);
    const probe = await frame.evaluate(() => {
      const w = window as unknown as { __pepePwned?: number };
      const msg = Array.from(document.querySelectorAll('.msg.assistant')).at(-1)!;
      return {
        pwned: w.__pepePwned ?? null,
        scripts: msg.querySelectorAll('script').length,
        imgs: msg.querySelectorAll('img').length,
        handlers: Array.from(msg.querySelectorAll('*')).filter((el) => Array.from(el.attributes).some((a) => a.name.startsWith('on'))).length,
        links: Array.from(msg.querySelectorAll('a')).map((a) => ({ text: a.textContent, href: a.getAttribute('href') })),
        text: (msg as HTMLElement).innerText,
      };
    });
    assert.equal(probe.pwned, null, 'an injected script ran');
    assert.equal(probe.scripts, 0);
    assert.equal(probe.imgs, 0);
    assert.equal(probe.handlers, 0);
    assert.deepEqual(probe.links.find((l) => l.text === 'click me'), { text: 'click me', href: null });
    assert.deepEqual(probe.links.find((l) => l.text === 'docs'), { text: 'docs', href: 'https://example.com/docs' });
    assert.ok(probe.text.includes('<script>window.__pepePwned = 1</script>'), `raw HTML should show as text: ${probe.text}`);
  });

  it('/agent billing switches: the next message is answered by billing in a new session', async function () {
    await pickAgent('triage');
    const before = await chat().locator('#agent').inputValue();
    assert.equal(before, 'triage');
    await send('/agent billing');
    await waitFor(async () => (await chat().locator('#agent').inputValue()) === 'billing', { timeoutMs: 20_000, what: 'the picker to show billing' });
    assert.match(await transcriptText(), /switched from triage to billing/);
    assert.equal(await chat().locator('.msg.user').count(), 0, 'the new session should start empty');
    await send('hello billing');
    await waitFor(async () => (await transcriptText()).includes('Refunds take five days (billing).'), { timeoutMs: 60_000, what: "billing's answer" });
    await waitIdle();
    const sessions = path.join(home, 'sessions', 'billing');
    const mine = await waitFor(() => {
      const out = readdirSync(sessions);
      return out.length >= 2 ? out : undefined;
    }, { timeoutMs: 10_000, what: 'a new billing session on disk' });
    assert.ok(mine.length >= 2); // one routed (from triage), one the user's own
  });

  it('reloading the window restores the conversation', async function () {
    const before = await transcriptText();
    assert.ok(before.includes('hello billing'));
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForWorkbench(page);
    await chatFrameHandle(page, 90_000);
    await waitFor(async () => (await transcriptText()).includes('Refunds take five days (billing).'), { timeoutMs: 60_000, what: 'the restored conversation' });
    assert.ok((await transcriptText()).includes('hello billing'));
    assert.equal(await chat().locator('#agent').inputValue(), 'billing');
  });

  it('dark theme screenshot', async function () {
    await runCommand(page, 'Preferences: Color Theme');
    await pickItem(page, 'Dark Modern');
    await waitFor(async () => (await page.locator('.monaco-workbench.vs-dark').count()) > 0, { timeoutMs: 30_000, what: 'the dark theme' });
    await waitForQuickInputClosed(page);
    await sleep(500);
    await docScreenshot(page, 'chat-dark.png');
  });
});
