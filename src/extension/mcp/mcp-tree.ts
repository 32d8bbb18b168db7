import * as vscode from 'vscode';
import type { McpServerRow, McpToolRow } from '../../core/mcp/manager.js';
import type { PepeHost } from '../host/pepe-host.js';
import { PepeTree } from '../views/nodes.js';

export type McpServerNode = { kind: 'mcpServer'; server: string; row: McpServerRow };
export type McpToolNode = { kind: 'mcpTool'; server: string; tool: McpToolRow };
export type McpMessageNode = { kind: 'mcpMessage'; server: string; message: string; error: boolean };
type Node = McpServerNode | McpToolNode | McpMessageNode;

const STATE_LABEL: Record<string, string> = { not_started: 'not started', starting: 'starting', running: 'running', stopped: 'stopped', failed: 'failed' };

/**
 * The MCP Servers view: each configured server with its state, the agents that use it and its
 * credential; expanding a server starts it (if needed) and lists its tools as agents see them.
 */
export class McpTree extends PepeTree<Node> {
  constructor(private readonly host: PepeHost) {
    super();
  }

  async getChildren(node?: Node): Promise<Node[]> {
    const pepe = await this.host.get();
    if (!node) return pepe.mcpDescribe().map((row) => ({ kind: 'mcpServer', server: row.name, row }));
    if (node.kind !== 'mcpServer') return [];
    if (node.row.invalid) return [{ kind: 'mcpMessage', server: node.server, message: node.row.invalid, error: true }];
    if (node.row.disabled) return [{ kind: 'mcpMessage', server: node.server, message: 'disabled in config.json', error: false }];
    // Restricted Mode: expanding a server must not start it (a local server runs code).
    const restricted = pepe.mcpRestriction();
    if (restricted) return [{ kind: 'mcpMessage', server: node.server, message: restricted, error: false }];
    const { check, tools } = await pepe.mcpToolRows(node.server);
    // When the state changed (started, or failed), the server row shows it; unchanged, nothing
    // is redrawn (a redraw asks for these children again).
    const now = pepe.mcpStatus().find((s) => s.name === node.server);
    if (now && (now.state !== node.row.status.state || now.restarts !== node.row.status.restarts)) setTimeout(() => this.refresh(), 0);
    if (!check.ok) return [{ kind: 'mcpMessage', server: node.server, message: check.error ?? 'did not list its tools', error: true }];
    if (!tools.length) return [{ kind: 'mcpMessage', server: node.server, message: 'offers no tools', error: false }];
    return tools.map((tool) => ({ kind: 'mcpTool', server: node.server, tool }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'mcpMessage') {
      const item = new vscode.TreeItem(node.message.split('\n')[0]!, vscode.TreeItemCollapsibleState.None);
      item.tooltip = node.message;
      item.iconPath = new vscode.ThemeIcon(node.error ? 'error' : 'info', node.error ? new vscode.ThemeColor('problemsErrorIcon.foreground') : undefined);
      item.accessibilityInformation = { label: `${node.server}: ${node.message.split('\n')[0]!}` };
      return item;
    }
    if (node.kind === 'mcpTool') {
      // The tool by its own name, the server as its label (agents' internal name in the tooltip).
      const item = new vscode.TreeItem(node.tool.tool, vscode.TreeItemCollapsibleState.None);
      item.id = `mcp-tool:${node.tool.name}`;
      item.description = [node.server, ...node.tool.annotations].join(' · ');
      item.tooltip = `${node.tool.description}\n\n${node.tool.annotations.length ? `The server ${node.tool.annotations.join(', ')} (its own claim).\n` : ''}Every call is asked first unless you pre-approved it.\nAgents call it ${node.tool.name}; a tool list or auto_approve entry uses that name.`;
      item.iconPath = new vscode.ThemeIcon('tools');
      item.contextValue = 'mcpTool';
      item.accessibilityInformation = { label: `MCP tool ${node.tool.tool} of ${node.server}${node.tool.annotations.length ? `: ${node.tool.annotations.join(', ')}` : ''}` };
      return item;
    }
    const { row } = node;
    if (row.awaiting) {
      // A workspace's server not accepted yet: listed, never started; the review command accepts it.
      const waiting = new vscode.TreeItem(row.name, vscode.TreeItemCollapsibleState.None);
      waiting.id = `mcp:${row.name}`;
      waiting.description = `${row.awaiting === 'changed' ? 'changed: awaiting acceptance' : 'awaiting acceptance'} · ${row.source}`;
      waiting.tooltip = `From ${row.source}. It does not start until you accept it (Review Workspace Items…).`;
      waiting.iconPath = new vscode.ThemeIcon('shield');
      waiting.command = { command: 'pepe.trust.review', title: 'Review Workspace Items…' };
      waiting.contextValue = 'mcpServerAwaiting';
      waiting.accessibilityInformation = { label: `MCP server ${row.name}: ${waiting.description}` };
      return waiting;
    }
    const item = new vscode.TreeItem(row.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `mcp:${row.name}`;
    const state = row.invalid ? 'invalid' : row.disabled ? 'disabled' : STATE_LABEL[row.status.state] ?? row.status.state;
    const restarts = row.status.restarts ? `restarted ${row.status.restarts}×` : null;
    item.description = [row.kind, state, restarts, row.agents.length ? `used by ${row.agents.join(', ')}` : 'no agent uses it', row.rawCredentials.length ? 'raw token: revoke it' : null, row.source !== 'config.json' ? row.source : null].filter(Boolean).join(' · ');
    item.tooltip = [row.target, row.invalid ?? row.status.lastError ?? '', ...row.warnings].filter(Boolean).join('\n\n');
    const bad = row.invalid || row.status.state === 'failed' || row.rawCredentials.length > 0;
    item.iconPath = bad
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
      : new vscode.ThemeIcon(row.status.state === 'running' ? 'plug' : 'debug-disconnect');
    item.contextValue = 'mcpServer';
    item.accessibilityInformation = { label: `MCP server ${row.name}: ${item.description}` };
    return item;
  }
}
