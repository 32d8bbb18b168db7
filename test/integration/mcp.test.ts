/**
 * MCP in the editor: a real server-everything in the MCP Servers view (state, tools, restart), and
 * `@pepe` through the chat participant API (the workbench's own chat needs a signed-in account
 * here, so the registered handler is called with the API's request, context, stream and token).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, extensionPath, type Api } from './helpers';

describe('MCP servers and @pepe', function () {
  let a: Api;
  let dir: string;
  before(async () => {
    a = await api();
    dir = mkdtempSync(path.join(tmpdir(), 'pepe-mcp-it-'));
  });
  after(async () => {
    const pepe = await a.testing.host.get();
    await pepe.mcpRemove('ev').catch(() => undefined);
    // The agents exist only when the @pepe test ran (a grep may select the others alone).
    for (const agent of ['chatty', 'other']) await Promise.resolve(vscode.commands.executeCommand('pepe.agent.remove', { agent, force: true })).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  function recordingStream() {
    const parts: string[] = [];
    const progress: string[] = [];
    return {
      parts,
      progress,
      stream: { markdown: (v: string | vscode.MarkdownString) => void parts.push(typeof v === 'string' ? v : v.value), progress: (v: string) => void progress.push(v) } as unknown as vscode.ChatResponseStream,
    };
  }
  const token = () => new vscode.CancellationTokenSource().token;

  it('the MCP Servers view shows a real server, starts it to list its tools, and restarts it', async () => {
    const pepe = await a.testing.host.get();
    const main = path.join(extensionPath(), 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    // The editor's own binary runs as plain Node for the server.
    await pepe.mcpAdd('ev', { command: process.execPath, args: [main, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } });
    const tree = a.testing.mcp.tree;
    const [server] = await tree.getChildren();
    assert.equal(server?.kind, 'mcpServer');
    assert.match(String(tree.getTreeItem(server!).description), /not started/);
    const tools = await tree.getChildren(server);
    assert.ok(tools.some((t) => t.kind === 'mcpTool' && t.tool.name === 'mcp__ev__echo'), JSON.stringify(tools.map((t) => t.kind)));
    const [again] = await tree.getChildren();
    assert.match(String(tree.getTreeItem(again!).description), /running/);
    const pid = pepe['mcp'].connection('ev').pid;
    await vscode.commands.executeCommand('pepe.mcp.restart', again);
    assert.notEqual(pepe['mcp'].connection('ev').pid, pid, 'a new process after Restart');
  });

  it('Restricted Mode: expanding a server starts nothing and says how to use it', async () => {
    const main = path.join(extensionPath(), 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    const before = await a.testing.host.get();
    if (!before.mcpDescribe().some((r) => r.name === 'ev')) await before.mcpAdd('ev', { command: process.execPath, args: [main, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } });
    a.testing.simulateTrust(false);
    try {
      const pepe = await a.testing.host.get();
      const tree = a.testing.mcp.tree;
      const server = (await tree.getChildren()).find((n) => n.kind === 'mcpServer' && n.server === 'ev');
      assert.ok(server);
      const children = await tree.getChildren(server);
      assert.deepEqual(
        children.map((c) => (c.kind === 'mcpMessage' ? { message: c.message, error: c.error } : c.kind)),
        [{ message: 'Restricted Mode: trust the folder to use MCP servers', error: false }],
      );
      const status = pepe.mcpStatus().find((s) => s.name === 'ev');
      assert.equal(status?.state, 'not_started');
      assert.equal(status?.pid, null);
    } finally {
      a.testing.simulateTrust(undefined);
    }
  });

  it('@pepe hands the request to the agent /agent names; the conversation keeps that agent and its session; an unknown agent is said plainly', async () => {
    const script = (name: string, text: string) => {
      const file = path.join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify({ steps: [{ text }, { echo_prompt: true }] }));
      return `mock:${file}`;
    };
    const pepe = await a.testing.host.get();
    const chatty = script('chatty', 'Hello from chatty.');
    const other = script('other', 'Other here.');
    await pepe['store'].update((raw) => {
      const agents = (raw.agents ??= {}) as Record<string, unknown>;
      agents.chatty = { model: chatty };
      agents.other = { model: other };
    });
    await pepe.reload();
    const { participant, handleRequest } = a.testing.mcp;

    const first = recordingStream();
    const r1 = await handleRequest(participant, { prompt: 'chatty hi there', command: 'agent' }, { history: [] }, first.stream, token());
    assert.equal(first.parts.join(''), 'Hello from chatty.');
    const meta = r1.metadata as { agent: string; sessionId: string };
    assert.equal(meta.agent, 'chatty');

    // The next request of the same conversation continues chatty's session (the model sees the history).
    const second = recordingStream();
    const history = [{ result: r1 }] as unknown as vscode.ChatContext['history'];
    const r2 = await handleRequest(participant, { prompt: 'and again', command: undefined }, { history }, second.stream, token());
    assert.equal((r2.metadata as { sessionId: string }).sessionId, meta.sessionId);
    assert.match(second.parts.join(''), /hi there[\s\S]*and again/);

    const third = recordingStream();
    const r3 = await handleRequest(participant, { prompt: 'other what now', command: 'agent' }, { history }, third.stream, token());
    assert.equal((r3.metadata as { agent: string }).agent, 'other');
    assert.equal(third.parts.join(''), 'Other here.');

    const none = recordingStream();
    const r4 = await handleRequest(participant, { prompt: 'nobody hello', command: 'agent' }, { history: [] }, none.stream, token());
    assert.ok(r4.errorDetails);
    assert.match(none.parts.join(''), /No agent named \*\*nobody\*\*/);
  });
});
