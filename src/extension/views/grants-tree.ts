import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { GrantEntry } from '../../core/grant-controls.js';
import type { PepeHost } from '../host/pepe-host.js';
import { PepeTree } from './nodes.js';

/** A group per agent ("every agent" for an MCP server's pre-approval), and its entries. */
export type GrantAgentNode = { kind: 'grantAgent'; agent: string; entries: GrantEntry[] };
export type GrantNode = { kind: 'grant'; entry: GrantEntry };
type Node = GrantAgentNode | GrantNode;

const KIND_LABEL: Record<GrantEntry['kind'], string> = {
  saved: 'saved',
  mcp_read_only: 'MCP server setting',
  trusts_outside_content: 'agent setting',
  session: 'this session',
  task: 'running task',
  bypass: 'bypass, this session',
  taint: 'outside content',
};

const KIND_ICON: Record<GrantEntry['kind'], string> = {
  saved: 'pass',
  mcp_read_only: 'server',
  trusts_outside_content: 'unlock',
  session: 'history',
  task: 'play',
  bypass: 'warning',
  taint: 'shield',
};

/**
 * The Grants view (issue 25): everything that lets a call run without asking, from every window
 * and the CLI, grouped by agent, each with its words in the tooltip; Revoke on an entry, Clear on
 * the view. Re-read whenever config.json or the grants folder beside it changes on disk.
 */
export class GrantsTree extends PepeTree<Node> {
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | undefined;
  private watchedHome: string | null = null;
  /** The last listing shown (for tests and the commands). */
  last: GrantEntry[] = [];

  constructor(private readonly host: PepeHost) {
    super();
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (node?.kind === 'grantAgent') return node.entries.map((entry) => ({ kind: 'grant', entry }));
    if (node) return [];
    const pepe = await this.host.get();
    this.watchHome(pepe.paths.home);
    const list = await pepe.grantList();
    this.last = list;
    const groups = new Map<string, GrantEntry[]>();
    for (const e of list) groups.set(e.agent, [...(groups.get(e.agent) ?? []), e]);
    return [...groups].map(([agent, entries]) => ({ kind: 'grantAgent', agent, entries }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'grantAgent') {
      const label = node.agent === '*' ? 'every agent' : node.agent;
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `grants:${node.agent}`;
      const n = node.entries.filter((e) => e.revocable).length;
      item.description = `${n} grant${n === 1 ? '' : 's'}`;
      item.iconPath = new vscode.ThemeIcon('hubot');
      item.contextValue = node.agent === '*' ? 'grantGroup' : 'grantAgent';
      return item;
    }
    const e = node.entry;
    const item = new vscode.TreeItem(e.scope, vscode.TreeItemCollapsibleState.None);
    item.id = `grant:${e.id}`;
    item.description = [KIND_LABEL[e.kind], e.sessionId && e.kind !== 'taint' ? `session ${e.sessionId}` : null, e.source === 'config.json' || e.source === 'this process' ? null : e.source].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(KIND_ICON[e.kind]);
    const tip = new vscode.MarkdownString(undefined, false);
    tip.isTrusted = false;
    tip.appendText(`${e.covers}\n\n`);
    tip.appendText(`ID ${e.id} · ${KIND_LABEL[e.kind]} · from ${e.source}${e.since ? ` · since ${e.since.replace('T', ' ').slice(0, 19)}` : ''}\n\n`);
    tip.appendText(e.revocable ? 'Revoke takes it away from the very next call, in every window.' : `Not revocable here: ${e.how ?? ''}`);
    item.tooltip = tip;
    item.contextValue = e.revocable ? 'grant' : 'grantFixed';
    item.accessibilityInformation = { label: `${e.scope}: ${e.covers}` };
    return item;
  }

  /** config.json's changes come through the host; the grants folder (other windows, the CLI) through this. */
  private watchHome(home: string): void {
    if (this.watchedHome === home) return;
    this.watcher?.close();
    this.watchedHome = home;
    const dir = join(home, 'grants');
    try {
      mkdirSync(dir, { recursive: true });
      this.watcher = watch(dir, () => this.schedule());
      this.watcher.on('error', () => undefined);
    } catch {
      this.watcher = null;
    }
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 150);
  }

  override dispose(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
    super.dispose();
  }
}

/** The view, its Revoke / Revoke All of an Agent / Clear / Refresh commands. */
export function registerGrantsView(host: PepeHost, log: vscode.LogOutputChannel): { disposables: vscode.Disposable[]; tree: GrantsTree } {
  const tree = new GrantsTree(host);
  const run = async (what: () => Promise<string>) => {
    try {
      const message = await what();
      log.info(message);
      vscode.window.setStatusBarMessage(`Pepe: ${message}`, 5000);
    } catch (e) {
      void vscode.window.showErrorMessage(`Pepe: ${e instanceof Error ? e.message : String(e)}`);
    }
    tree.refresh();
  };
  const disposables: vscode.Disposable[] = [
    tree,
    vscode.window.createTreeView('pepe.grants', { treeDataProvider: tree, showCollapseAll: true }),
    host.onDidChange(() => tree.refresh()),
    vscode.commands.registerCommand('pepe.grants.refresh', () => tree.refresh()),
    vscode.commands.registerCommand('pepe.grants.revoke', async (node?: GrantNode | GrantAgentNode | { id?: string }) => {
      const pepe = await host.get();
      if (node && 'kind' in node && node.kind === 'grantAgent') {
        return run(async () => `revoked ${(await pepe.grantRevokeScope(node.agent)).length} grants of ${node.agent}`);
      }
      let id = node && 'kind' in node && node.kind === 'grant' ? node.entry.id : (node as { id?: string } | undefined)?.id;
      if (!id) {
        const list = (await pepe.grantList()).filter((e) => e.revocable);
        if (!list.length) return void vscode.window.showInformationMessage('Pepe: nothing lets a call run without asking.');
        const picked = await vscode.window.showQuickPick(list.map((e) => ({ label: e.scope, description: `${e.agent === '*' ? 'every agent' : e.agent} · ${KIND_LABEL[e.kind]}`, detail: e.covers, id: e.id })), { title: 'Pepe: Revoke Grant', ignoreFocusOut: true });
        if (!picked) return;
        id = picked.id;
      }
      const target = id;
      return run(async () => {
        const e = await pepe.grantRevoke(target);
        return `revoked ${e.scope} (${e.agent === '*' ? 'every agent' : e.agent}); the next such call is asked`;
      });
    }),
    vscode.commands.registerCommand('pepe.grants.clear', async (opts?: { force?: boolean }) => {
      const pepe = await host.get();
      const n = (await pepe.grantList()).filter((e) => e.revocable).length;
      if (!n) return void vscode.window.showInformationMessage('Pepe: nothing lets a call run without asking.');
      if (opts?.force !== true) {
        const ok = await vscode.window.showWarningMessage(`Revoke all ${n} grants?`, { modal: true, detail: 'Saved "always" entries, session and task grants, the bypass and the settings that keep approvals after outside content. From the next call on, each is asked again, in every window.' }, 'Revoke All');
        if (ok !== 'Revoke All') return;
      }
      return run(async () => `revoked ${(await pepe.grantClear()).length} grants`);
    }),
  ];
  return { disposables, tree };
}
