import * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';
import type { ApiKeys } from '../host/api-keys.js';
import type { PepeHost } from '../host/pepe-host.js';
import { McpTree, type McpServerNode } from './mcp-tree.js';
import { handleRequest, registerParticipant, type ParticipantDeps } from './participant.js';

export interface McpUiDeps {
  host: PepeHost;
  /** SecretStorage: where a server's `${VAR}` credential may be kept instead of the environment. */
  secrets: Pick<ApiKeys, 'set'>;
  log: vscode.LogOutputChannel;
  defaultAgent: (pepe: Pepe) => string | null;
}

/** What the tests reach: the tree and the participant's handler (the workbench chat needs a sign-in). */
export interface McpTesting {
  tree: McpTree;
  participant: ParticipantDeps;
  handleRequest: typeof handleRequest;
}

/** The MCP Servers view, its commands, and the `@pepe` chat participant. */
export function registerMcp(deps: McpUiDeps): { disposables: vscode.Disposable[]; testing: McpTesting } {
  const tree = new McpTree(deps.host);
  const participant: ParticipantDeps = { getPepe: () => deps.host.get(), defaultAgent: deps.defaultAgent, log: deps.log };
  const serverOf = async (node?: McpServerNode): Promise<string | undefined> => {
    if (node?.server) return node.server;
    const pepe = await deps.host.get();
    return vscode.window.showQuickPick(pepe.mcp.describe().map((r) => r.name), { placeHolder: 'MCP server' });
  };
  const disposables: vscode.Disposable[] = [
    tree,
    vscode.window.createTreeView('pepe.mcp', { treeDataProvider: tree, showCollapseAll: true }),
    deps.host.onDidChange(() => tree.refresh()),
    vscode.commands.registerCommand('pepe.mcp.refresh', () => tree.refresh()),
    vscode.commands.registerCommand('pepe.mcp.restart', async (node?: McpServerNode) => {
      const name = await serverOf(node);
      if (!name) return;
      const pepe = await deps.host.get();
      try {
        const tools = await pepe.mcp.restart(name);
        void vscode.window.showInformationMessage(`MCP server ${name} restarted: ${tools.length} tools.`);
      } catch (e) {
        void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
      }
      tree.refresh();
    }),
    vscode.commands.registerCommand('pepe.mcp.remove', async (node?: McpServerNode) => {
      const name = await serverOf(node);
      if (!name) return;
      const ok = await vscode.window.showWarningMessage(`Remove the MCP server ${name}? Agents that use it lose its tools.`, { modal: true }, 'Remove');
      if (ok !== 'Remove') return;
      await (await deps.host.get()).mcp.remove(name);
      tree.refresh();
    }),
    vscode.commands.registerCommand('pepe.mcp.add', async () => {
      const pepe = await deps.host.get();
      const name = await vscode.window.showInputBox({ prompt: 'MCP server name (letters, digits, single - or _)', validateInput: (v) => (/^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/.test(v) ? null : 'letters and digits, with single - or _ between them') });
      if (!name) return;
      const target = await vscode.window.showInputBox({
        prompt: 'A URL (remote server) or a command line (local server, e.g. npx -y @modelcontextprotocol/server-everything)',
        placeHolder: 'https://… or a command',
      });
      if (!target?.trim()) return;
      const remote = /^https?:\/\//i.test(target.trim());
      const words = remote ? [] : splitCommandLine(target.trim());
      let network = false;
      if (!remote) {
        const answer = await vscode.window.showQuickPick(['No network', 'Allow network (needed for npx to download the package)'], { placeHolder: `May ${name} reach the network?` });
        if (!answer) return;
        network = answer.startsWith('Allow');
      }
      const agents = Object.keys(pepe.config.agents ?? {});
      const picked = agents.length ? await vscode.window.showQuickPick(agents, { canPickMany: true, placeHolder: 'Agents that may use its tools (each call is still asked first)' }) : [];
      try {
        const server = remote ? { url: target.trim() } : { command: words[0], ...(words.length > 1 ? { args: words.slice(1) } : {}), ...(network ? { network: true } : {}) };
        const { warnings } = await pepe.mcp.add(name, server, { agents: picked ?? [] });
        for (const w of warnings) void vscode.window.showWarningMessage(w);
      } catch (e) {
        void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
      }
      tree.refresh();
    }),
    vscode.commands.registerCommand('pepe.mcp.setSecret', async () => {
      const pepe = await deps.host.get();
      const names = [...new Set(pepe.mcp.describe().flatMap((r) => r.credentials.map((c) => `${c.variable}${c.set ? ' (set)' : ''}`)))];
      if (!names.length) return void vscode.window.showInformationMessage('No MCP server refers to a ${VARIABLE}: add the credential to its entry as a reference first.');
      const picked = await vscode.window.showQuickPick(names, { placeHolder: 'The variable an MCP server refers to' });
      if (!picked) return;
      const name = picked.replace(/ \(set\)$/, '');
      const value = await vscode.window.showInputBox({ prompt: `Value of \${${name}} (kept in VS Code's secret storage, never in config.json)`, password: true, ignoreFocusOut: true });
      if (!value) return;
      await deps.secrets.set(name, value);
      await deps.host.reload();
      void vscode.window.showInformationMessage(`\${${name}} is set for MCP servers started from now on (restart a running one).`);
    }),
    vscode.commands.registerCommand('pepe.mcp.grantVsCodeTool', async () => {
      const pepe = await deps.host.get();
      const tools = pepe.mcp.hostToolNames();
      if (!tools.length) return void vscode.window.showInformationMessage('VS Code offers no tools right now (its MCP servers and other extensions add them).');
      const tool = await vscode.window.showQuickPick(tools, { placeHolder: 'A VS Code tool to give an agent (each call is still asked first)' });
      if (!tool) return;
      const agent = await vscode.window.showQuickPick(Object.keys(pepe.config.agents ?? {}), { placeHolder: `Agent that may use ${tool}` });
      if (!agent) return;
      await pepe.mcp.grant(agent, `vscode:${tool}`);
      void vscode.window.showInformationMessage(`${agent} may now use ${tool}; each call is asked first.`);
    }),
    registerParticipant(participant),
  ];
  return { disposables, testing: { tree, participant, handleRequest } };
}

/** Words of a command line: spaces separate, single or double quotes group (no expansion of any kind). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}
