import * as vscode from 'vscode';
import { mcpAdd } from './mcp-add.js';
import type { McpUiDeps } from './mcp-ui-deps.js';
import { McpTree, type McpServerNode } from './mcp-tree.js';
import { handleRequest, registerParticipant, type ParticipantDeps } from './participant.js';

export type { McpUiDeps } from './mcp-ui-deps.js';

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
    return vscode.window.showQuickPick(pepe.mcpDescribe().map((r) => r.name), { title: 'Pepe: MCP server', placeHolder: 'which MCP server' });
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
        const tools = await pepe.mcpRestart(name);
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
      await (await deps.host.get()).mcpRemove(name);
      tree.refresh();
    }),
    vscode.commands.registerCommand('pepe.mcp.add', () => mcpAdd(deps, () => tree.refresh())),
    vscode.commands.registerCommand('pepe.mcp.setSecret', async () => {
      const pepe = await deps.host.get();
      const names = [...new Set(pepe.mcpDescribe().flatMap((r) => r.credentials.map((c) => `${c.variable}${c.set ? ' (set)' : ''}`)))];
      if (!names.length) return void vscode.window.showInformationMessage('No MCP server refers to a ${VARIABLE}: add the credential to its entry as a reference first.');
      const picked = await vscode.window.showQuickPick(names, { title: 'Pepe: Set MCP Server Secret', placeHolder: 'the ${VARIABLE} an MCP server refers to', ignoreFocusOut: true });
      if (!picked) return;
      const name = picked.replace(/ \(set\)$/, '');
      const value = await vscode.window.showInputBox({ title: `Pepe: Set MCP Server Secret \${${name}}`, prompt: `Value of \${${name}} (kept in VS Code's secret storage, never in config.json)`, password: true, ignoreFocusOut: true });
      if (!value) return;
      await deps.secrets.set(name, value);
      await deps.host.reload();
      void vscode.window.showInformationMessage(`\${${name}} is set for MCP servers started from now on (restart a running one).`);
    }),
    vscode.commands.registerCommand('pepe.mcp.grantVsCodeTool', async () => {
      const pepe = await deps.host.get();
      const tools = pepe.mcpHostToolNames();
      if (!tools.length) return void vscode.window.showInformationMessage('VS Code offers no tools right now (its MCP servers and other extensions add them).');
      const tool = await vscode.window.showQuickPick(tools, { title: 'Pepe: Give an Agent a VS Code Tool', placeHolder: 'a VS Code tool to give an agent (each call is still asked first)', ignoreFocusOut: true });
      if (!tool) return;
      const agent = await vscode.window.showQuickPick(Object.keys(pepe.config.agents ?? {}), { title: `Pepe: Give an Agent ${tool}`, placeHolder: `the agent that may use ${tool}`, ignoreFocusOut: true });
      if (!agent) return;
      await pepe.mcpGrant(agent, `vscode:${tool}`);
      void vscode.window.showInformationMessage(`${agent} may now use ${tool}; each call is asked first.`);
    }),
    registerParticipant(participant),
  ];
  return { disposables, testing: { tree, participant, handleRequest } };
}

export { splitCommandLine } from './mcp-add.js';
