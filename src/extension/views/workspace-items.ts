import * as vscode from 'vscode';
import type { PepeHost } from '../host/pepe-host.js';
import type { ApiKeys } from '../host/api-keys.js';

/**
 * The workspace's agent files, MCP entries and hooks apply only once the person accepts them
 * (issue 24): a notification offers it when something awaits, and "Review Workspace Items…"
 * (the Agents and MCP views' title bars) lists each item with what it may do. An MCP entry's
 * password input is asked once and kept in SecretStorage, never in a file.
 */

const GLOBS = ['.pepe/agents/*.md', '.pepe/hooks.json', '.github/agents/*.agent.md', '.claude/agents/*.md', '.vscode/mcp.json', '.mcp.json'];

export function registerWorkspaceItems(deps: { host: PepeHost; apiKeys: ApiKeys; log: vscode.LogOutputChannel }): vscode.Disposable[] {
  const { host } = deps;
  const offered = new Set<string>();
  const disposables: vscode.Disposable[] = [];

  const review = async () => {
    const pepe = await host.get();
    const { workspace, items } = pepe.trustList();
    if (!workspace) return void vscode.window.showInformationMessage('Pepe leaves workspace files out in Restricted Mode: trust the folder first.');
    if (!items.length) return void vscode.window.showInformationMessage('This workspace has no agent files, MCP entries or hooks for Pepe.');
    const picks = items.map((it) => ({
      label: `${it.kind === 'agent' ? '$(hubot)' : it.kind === 'mcp' ? '$(server)' : '$(zap)'} ${it.name}`,
      description: `${it.file} · ${it.status === 'accepted' ? 'accepted' : it.status === 'changed' ? 'changed: awaiting acceptance' : 'awaiting acceptance'}`,
      detail: it.problems.length ? `${it.power} — problems: ${it.problems.join('; ')}` : it.power,
      picked: it.status === 'accepted',
      item: it,
    }));
    const chosen = await vscode.window.showQuickPick(picks, { canPickMany: true, title: 'Pepe: what this workspace may do', placeHolder: 'Checked items apply; accepting grants no approval (calls are still asked)' });
    if (!chosen) return;
    const keep = new Set(chosen.map((c) => c.item.id));
    for (const it of items) {
      if (keep.has(it.id) && it.status !== 'accepted') await pepe.trustAccept(it.id);
      if (!keep.has(it.id) && it.status === 'accepted') await pepe.trustRevoke(it.id);
    }
    await askInputs();
    await host.reload();
  };

  // `${input:…}` values of accepted servers: asked once, kept in SecretStorage (the env overlay picks them up).
  const askInputs = async () => {
    const pepe = await host.get();
    for (const s of pepe.workspaceItems()?.mcp ?? []) {
      if (!s.server || !pepe.config.mcp_servers?.[s.name]) continue;
      for (const input of s.inputs) {
        if (pepe.env[input.variable] || (await deps.apiKeys.has(input.variable))) continue;
        const value = await vscode.window.showInputBox({ title: `MCP server ${s.name}`, prompt: input.description, password: input.password, ignoreFocusOut: true });
        if (value) await deps.apiKeys.set(input.variable, value);
      }
    }
  };

  const offer = async () => {
    const pepe = host.current;
    if (!pepe) return;
    const waiting = pepe.trustList().items.filter((it) => it.status !== 'accepted');
    const key = waiting.map((it) => `${it.id}@${it.hash}`).join(',');
    if (!waiting.length || offered.has(key)) return;
    offered.add(key);
    const names = waiting.map((it) => it.name).join(', ');
    const answer = await vscode.window.showInformationMessage(`This workspace has ${waiting.length === 1 ? 'an item' : `${waiting.length} items`} for Pepe awaiting acceptance (${names}). Nothing from them applies until you accept.`, 'Review…', 'Later');
    if (answer === 'Review…') await review();
  };

  disposables.push(vscode.commands.registerCommand('pepe.trust.review', review), host.onDidChange(() => void offer()));
  // Workspace files change in the editor (or a checkout): read them again.
  for (const glob of GLOBS) {
    const watcher = vscode.workspace.createFileSystemWatcher(glob);
    const again = () => void host.reload();
    disposables.push(watcher, watcher.onDidChange(again), watcher.onDidCreate(again), watcher.onDidDelete(again));
  }
  // Activation stays light: the core is built for the offer only when the workspace has such a file
  // (a cheap search, after activation), else when something else builds it (onDidChange above).
  void Promise.resolve(vscode.workspace.findFiles(`{${GLOBS.join(',')}}`, null, 1)).then(
    (found) => (found.length ? host.get().then(() => offer()) : undefined),
    () => undefined,
  );
  return disposables;
}
