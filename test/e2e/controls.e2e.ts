/**
 * Acceptance (issue 25), in the real workbench: a saved grant is revoked from the Grants view and
 * the next call asks; plan mode refuses an edit (pre-approved or not) and "Start" hands the plan
 * over; the context meter and the turn's cost update after a turn, and a budget stops a turn.
 * Pictures of the mode switch, the Grants view and the context meter (docs/screenshots with
 * PEPE_UPDATE_SCREENSHOTS=1).
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { answerProposedChange, domText, onTestFailure, openViewContainer, openWorkbench, runCommand, sleep, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { buildChatTestExtension, chatFrame, chatFrameHandle, OPEN_PANEL } from './chat-harness';
import { docScreenshot, expandView, makePepeHome, waitForTreeRow } from './pepe-ui';

describe('e2e: the controls (grants view, plan mode, context meter and budget)', function () {
  let wb: Workbench | undefined;
  let home: string;
  let workspace: string;
  let page: Page;

  before(async function () {
    home = makePepeHome({});
    workspace = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-controls-ws-'));
    const script = (name: string, steps: unknown[]) => {
      const p = path.join(home, `${name}.json`);
      writeFileSync(p, JSON.stringify({ steps }));
      return p;
    };
    const write = (file: string) => ({ tool_calls: [{ name: 'write_file', arguments: { path: file, content: `${file}\n` } }] });
    const config = {
      models: {
        // Output at 5 cents a token, at most 20 tokens a call: a call's worst case is $1.
        priced: { provider: 'mock', model: script('meter', [{ text: 'Forty-two is the answer you asked for.' }, { text: 'never sent' }]), context_window: 1000, max_output_tokens: 20, price: { input_per_mtok: 0, output_per_mtok: 50_000 } },
      },
      agents: {
        writer: { model: `mock:${script('writer', [write('first.txt'), { text: 'Wrote first.' }, write('second.txt'), { text: 'Second done.' }])}`, tools: ['write_file'], auto_approve: ['write_file:write'] },
        planner: {
          model: `mock:${script('planner', [write('plan.txt'), { text: 'PLAN: 1. write plan.txt' }, write('plan.txt'), { text: 'Carried out.' }])}`,
          tools: ['write_file', 'read_file'],
          // Pre-approved: plan mode refuses it anyway, without asking.
          auto_approve: ['write_file:write'],
        },
        meter: { model: 'priced', tools: [], limits: { max_cost: 1.2 } },
      },
    };
    writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
    const extension = await buildChatTestExtension();
    wb = await openWorkbench({ env: { PEPE_HOME: home }, workspace, extensionDevelopmentPath: extension, settings: { 'workbench.colorTheme': 'Default Light Modern' } });
    page = wb.page;
    await waitForWorkbench(page);
    // On a loaded machine the test extension may take a while to register its command.
    await waitFor(
      async () => {
        try {
          await runCommand(page, OPEN_PANEL);
          return true;
        } catch {
          await page.keyboard.press('Escape');
          return undefined;
        }
      },
      { timeoutMs: 240_000, what: 'the test command that opens the chat panel' },
    );
    await chatFrameHandle(page, 60_000);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
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

  it('a saved grant is revoked from the Grants view, and the next call asks', async function () {
    await pickAgent('writer');
    await send('write the first file');
    await waitFor(async () => (await transcriptText()).includes('Wrote first.') || undefined, { timeoutMs: 60_000, what: 'the first answer' });
    await waitIdle();
    assert.ok(existsSync(path.join(workspace, 'first.txt')), 'the pre-approved write ran without asking');

    await openViewContainer(page, 'Pepe');
    await expandView(page, 'Grants');
    await waitForTreeRow(page, 'Grants', /^write_file:write: saved \("always"\): write_file calls whose only risks are/, 60_000);
    const row = page.locator('.part.sidebar .pane:has(.pane-header[aria-label^="Grants"]) .monaco-list-row[aria-label^="write_file:write"]').first();
    await row.hover();
    await sleep(800);
    await docScreenshot(page, 'grants-view.png');
    await row.locator('.action-label[aria-label^="Revoke"]').click();
    await waitFor(() => {
      const cfg = JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')) as { agents: Record<string, { auto_approve?: string[] }> };
      return cfg.agents.writer!.auto_approve?.length === 0 ? true : undefined;
    }, { timeoutMs: 30_000, what: 'the saved entry gone from config.json' });
    await waitFor(async () => {
      const rows = await page.locator('.part.sidebar .pane:has(.pane-header[aria-label^="Grants"]) .monaco-list-row').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
      return rows.some((r) => /writer/.test(r) && /^write_file:write/.test(r)) ? undefined : true;
    }, { timeoutMs: 30_000, what: 'the row gone from the view' });

    // The next write asks: in VS Code a file change is asked as a diff to accept or reject.
    await send('write the second file');
    await waitFor(
      async () => {
        const labels = (await page.locator('.tabs-container .tab').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).map(domText);
        return labels.find((l) => l.includes('second.txt') && l.includes('Accept or Reject'));
      },
      { timeoutMs: 60_000, what: 'the diff asking about second.txt' },
    );
    assert.equal(existsSync(path.join(workspace, 'second.txt')), false, 'not written before the person answers');
    await answerProposedChange(page, 'Accept');
    await waitFor(async () => (await transcriptText()).includes('Second done.') || undefined, { timeoutMs: 60_000, what: 'the second answer' });
    await waitIdle();
  });

  it('plan mode refuses a pre-approved edit without asking, then Start hands the plan over', async function () {
    await pickAgent('planner');
    const toggle = chat().locator('button[data-action="toggle-plan"]');
    await toggle.click();
    await waitFor(async () => ((await toggle.getAttribute('aria-pressed')) === 'true' ? true : undefined), { timeoutMs: 20_000, what: 'plan mode on' });
    await sleep(500);
    await docScreenshot(page, 'chat-plan-mode.png');
    await send('add plan.txt');
    await waitFor(async () => (await transcriptText()).includes('PLAN: 1. write plan.txt') || undefined, { timeoutMs: 60_000, what: 'the plan' });
    await waitIdle();
    assert.match(await transcriptText(), /Plan mode is on/);
    assert.equal(existsSync(path.join(workspace, 'plan.txt')), false, 'nothing was written in plan mode');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'nobody was asked');

    const start = chat().locator('button[data-action="start-plan"]');
    await start.waitFor({ state: 'visible', timeout: 20_000 });
    await start.click();
    await waitFor(async () => (await transcriptText()).includes('Carried out.') || undefined, { timeoutMs: 60_000, what: 'the plan carried out' });
    await waitIdle();
    assert.ok(existsSync(path.join(workspace, 'plan.txt')), 'the handed-over plan ran in acting mode');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  });

  it('the context meter and the cost update after a turn, and the budget stops the next turn', async function () {
    await pickAgent('meter');
    await send('what is the answer?');
    await waitFor(async () => (await transcriptText()).includes('Forty-two is the answer') || undefined, { timeoutMs: 60_000, what: 'the answer' });
    await waitIdle();
    const meter = chat().locator('.context-meter');
    const text = await waitFor(async () => {
      const t = domText(await meter.innerText().catch(() => ''));
      return /\d+ \/ 1,000 \(\d+%\)/.test(t) && /budget \$0\.\d\d of \$1\.20/.test(t) ? t : undefined;
    }, { timeoutMs: 30_000, what: 'the context meter with the budget' });
    assert.doesNotMatch(text, /budget \$0\.00 of/, 'the turn cost something');
    const usage = domText(await chat().locator('.turn-usage').last().innerText());
    assert.match(usage, /This turn: \d+ tokens.*\$0\.\d\d/);
    await sleep(500);
    await docScreenshot(page, 'chat-context-meter.png');

    await send('and again?');
    await waitFor(async () => /the conversation budget .* could be exceeded: this call may cost up to \$1\.00/.test(await transcriptText()) || undefined, { timeoutMs: 60_000, what: 'the budget stopping the turn' });
    await waitIdle();
    assert.doesNotMatch(await transcriptText(), /never sent/);
  });
});
