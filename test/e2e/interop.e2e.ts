/**
 * Acceptance (issue 24): a workspace with a `.pepe/agents/reviewer.md` and a `.vscode/mcp.json`
 * (the real server-everything) opens with both listed as awaiting acceptance; after the person
 * accepts them (Review Workspace Items…), the reviewer agent is listed and the MCP server is in
 * the view, marked with where it comes from; a turn with the reviewer shows AGENTS.md as used.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { domText, onTestFailure, openViewContainer, openWorkbench, repoRoot, runCommand, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { chatFrame } from './chat-harness';
import { expandView, makePepeHome, pickItem, waitForQuickInputClosed, waitForTreeRow } from './pepe-ui';

describe('e2e: workspace agent files and MCP servers', function () {
  let wb: Workbench | undefined;
  let home: string;
  let workspace: string;

  before(async function () {
    workspace = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-interop-ws-'));
    mkdirSync(path.join(workspace, '.pepe', 'agents'), { recursive: true });
    writeFileSync(path.join(workspace, 'AGENTS.md'), '# Project rules\n\nRun the tests before you answer.\n');
    writeFileSync(path.join(workspace, '.pepe', 'agents', 'reviewer.md'), '---\ndescription: Reviews changes\nmodel: mock\ntools: [read_file, list_dir]\n---\nYou review code.\n');
    mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    const main = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    writeFileSync(path.join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { everything: { type: 'stdio', command: process.execPath, args: [main, 'stdio'] } } }, null, 2));
    home = makePepeHome({});
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

  it('listed as awaiting acceptance, then accepted from Review Workspace Items…: the reviewer agent and the MCP server are in the views', async function () {
    const page = wb!.page;
    await openViewContainer(page, 'Pepe');
    await expandView(page, 'Agents');
    await expandView(page, 'MCP Servers');
    await waitForTreeRow(page, 'Agents', /^reviewer: awaiting acceptance · \.pepe\/agents\/reviewer\.md/, 60_000);
    await waitForTreeRow(page, 'MCP Servers', /^MCP server everything: awaiting acceptance · \.vscode\/mcp\.json/, 60_000);

    await runCommand(page, 'Pepe: Review Workspace Items…');
    for (const name of ['reviewer', 'everything']) {
      await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: name }).first().click();
    }
    const count = page.locator('.quick-input-widget .quick-input-count');
    await waitFor(async () => (/\b2\b/.test(await count.innerText()) ? true : undefined), { timeoutMs: 30_000, what: 'both items ticked' });
    await page.keyboard.press('Enter');
    await waitForQuickInputClosed(page);

    await waitFor(() => {
      const trust = JSON.parse(readFileSync(path.join(home, 'trust.json'), 'utf8')) as { workspaces: Record<string, Record<string, unknown>> };
      const items = Object.values(trust.workspaces)[0] ?? {};
      return 'agent:reviewer' in items && 'mcp:everything' in items ? true : undefined;
    }, { timeoutMs: 30_000, what: 'the acceptance recorded in PEPE_HOME' });
    await waitForTreeRow(page, 'Agents', /^reviewer: mock · (active · )?\.pepe\/agents\/reviewer\.md/, 60_000);
    const rows = await waitForTreeRow(page, 'MCP Servers', /^MCP server everything: local · not started · no agent uses it · \.vscode\/mcp\.json \(VS Code workspace\)/, 60_000);
    assert.ok(!rows.some((r) => /awaiting acceptance/.test(r)), rows.join('\n'));
  });

  it("a turn with the reviewer shows the project's instructions as used in the chat", async function () {
    const page = wb!.page;
    await runCommand(page, 'Pepe: Open Chat');
    // One agent: no question; more (a home agent, say): the picker.
    await pickItem(page, 'reviewer', 5_000).catch(() => undefined);
    const chat = chatFrame(page);
    await waitFor(async () => ((await chat.locator('#agent').inputValue().catch(() => '')) === 'reviewer' ? true : undefined), { timeoutMs: 60_000, what: 'the chat for reviewer' });
    const input = chat.locator('#input');
    await input.fill('review this');
    await input.press('Enter');
    const notice = chat.locator('[data-kind="instructions-used"]').first();
    await notice.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(domText(await notice.innerText()), /Using AGENTS\.md/);
  });
});
