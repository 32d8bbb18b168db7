/**
 * Acceptance (issue 18): a person adds the real, unmodified server-everything from the UI command
 * (name, command line, no network, the agent that may use it), sees its tools in the MCP Servers
 * view, and an agent's call of one of them (scripted mock model) raises the approval modal;
 * "Allow once" → the server's answer is the tool result, shown in the chat and in the transcript.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { clickDialogButton, domText, onTestFailure, openViewContainer, openWorkbench, repoRoot, runCommand, waitFor, waitForDialog, waitForWorkbench, type Workbench } from '../vscode/harness';
import { chatFrame } from './chat-harness';
import { answerInput, docScreenshot, expandView, makePepeHome, pickItem, waitForQuickInputClosed, waitForTreeRow } from './pepe-ui';

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

describe('e2e: MCP servers in the workbench', function () {
  let wb: Workbench | undefined;
  let home: string;

  before(async function () {
    home = makePepeHome({});
    const script = path.join(home, 'mcp-call.json');
    writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello-from-mcp' } }] }, { text: 'the server answered' }] }));
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ agents: { ops: { model: `mock:${script}` } } }, null, 2));
    wb = await openWorkbench({ env: { PEPE_HOME: home } });
    await waitForWorkbench(wb.page);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('Add MCP Server… → its tools in the view → an agent calls one → Allow once → the result', async function () {
    const page = wb!.page;
    const main = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

    await runCommand(page, 'Pepe: Add MCP Server…');
    // Titled and counted steps.
    await waitFor(async () => (/Add MCP Server.*1\/4/.test(domText(await page.locator('.quick-input-widget .quick-input-title').innerText().catch(() => ''))) ? true : undefined), { timeoutMs: 30_000, what: 'the first step, titled and counted' });
    await answerInput(page, 'everything');
    await answerInput(page, `"${process.execPath}" "${main}" stdio`);
    await pickItem(page, 'No network');
    // The agents that may use it: a multi-select with the current agent already ticked.
    const count = page.locator('.quick-input-widget .quick-input-count');
    await waitFor(async () => (/\b1\b/.test(await count.innerText()) ? true : undefined), { timeoutMs: 30_000, what: 'ops ticked' });
    await page.keyboard.press('Enter');
    await waitForQuickInputClosed(page);
    // The new server is started once and its tools are named, by their own names.
    // Every notification's message, in a toast or in the notification centre (a toast without
    // buttons hides itself after a while), read at once without waiting for any element.
    const notices = () => page.evaluate(() => Array.from(document.querySelectorAll('.notification-list-item-message'), (e) => e.textContent ?? '').join('\n'));
    const notice = await waitFor(async () => {
      const text = domText(await notices());
      if (/MCP server everything works and offers \d+ tools: /.test(text)) return text;
      if ((await page.locator('.notifications-center.visible').count()) === 0) await page.locator('.statusbar-item[id="status.notifications"]').first().click({ timeout: 2_000 }).catch(() => undefined);
      return undefined;
    }, { timeoutMs: 90_000, what: 'the test of the new server' });
    assert.match(notice, /offers \d+ tools: [^\n]*\becho\b/, notice);
    assert.doesNotMatch(notice, /mcp__everything__/, 'the tools are named by their own names');
    if ((await page.locator('.notifications-center.visible').count()) > 0) await page.keyboard.press('Escape');
    const saved = await waitFor(
      () => {
        const config = JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')) as { mcp_servers?: Record<string, { command?: string; args?: string[]; network?: boolean }>; agents?: Record<string, { mcp?: string[] }> };
        return config.mcp_servers?.everything && config.agents?.ops?.mcp?.includes('everything') ? config : undefined;
      },
      { timeoutMs: 30_000, what: 'the server and the agent grant in config.json' },
    );
    assert.deepEqual(saved.mcp_servers!.everything, { command: process.execPath, args: [main, 'stdio'] });

    await openViewContainer(page, 'Pepe');
    // Room for the tools: the other views are collapsed (only rows in view are drawn).
    await expandView(page, 'Agents', false);
    await expandView(page, 'Routes', false);
    await expandView(page, 'MCP Servers');
    await waitForTreeRow(page, 'MCP Servers', /^MCP server everything: local · (not started|running) · used by ops/, 60_000);
    // Expanding the server starts it (confined) and lists its tools as the agent sees them.
    await page.locator('.part.sidebar .pane:has(.pane-header[aria-label^="MCP Servers"]) .monaco-list-row[aria-label^="MCP server everything"]').first().click();
    // Each tool by its own name, the server as its label.
    const rows = await waitForTreeRow(page, 'MCP Servers', /^MCP tool echo of everything\b/, 90_000);
    assert.ok(rows.some((r) => /^MCP tool get-env of everything\b/.test(r)), rows.join('\n'));
    assert.ok(!rows.some((r) => r.includes('mcp__')), rows.join('\n'));
    await waitForTreeRow(page, 'MCP Servers', /^MCP server everything: local · running/, 30_000);
    await docScreenshot(page, 'mcp-servers.png');

    await runCommand(page, 'Pepe: Open Chat');
    const input = chatFrame(page).locator('#input');
    await input.waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor(async () => ((await input.getAttribute('placeholder'))?.includes('ops') ? true : undefined), { timeoutMs: 30_000, what: 'the chat panel for ops' });
    await input.fill('echo through the MCP server');
    await input.press('Enter');

    const message = await waitForDialog(page, 90_000);
    // The tool by its own name, the server as a label (issue 26).
    assert.match(message, /wants to use echo from the MCP server everything/);
    const detail = domText(await page.locator('.monaco-dialog-box .dialog-message-detail').innerText());
    assert.ok(detail.includes('hello-from-mcp'), detail);
    // No risk beyond "an outside tool": the short form, without a list of risks.
    assert.doesNotMatch(detail, /Risks?:|Why you are asked/, detail);
    await docScreenshot(page, 'mcp-approval.png');
    await clickDialogButton(page, 'Allow once');

    const results = await waitFor(() => (toolResults(home, 'ops').length ? toolResults(home, 'ops') : undefined), { timeoutMs: 60_000, what: 'the tool result in the transcript' });
    assert.match(results[0]!, /Echo: hello-from-mcp/);
    await waitFor(async () => (domText(await chatFrame(page).locator('body').innerText()).includes('the server answered') ? true : undefined), { timeoutMs: 30_000, what: 'the answer in the chat' });
  });
});
