import * as vscode from 'vscode';
import type { PendingApproval } from '../../core/permissions/pending.js';
import { visibleLine } from '../../core/display.js';
import type { TaskService, TaskView } from '../../core/tasks/index.js';
import type { PepeHost } from '../host/pepe-host.js';
import { PepeTree } from '../views/nodes.js';

export type TaskNode = { kind: 'task'; id: string; task: TaskView; approvals: number };
export type TaskApprovalNode = { kind: 'taskApproval'; id: string; taskId: string; approval: PendingApproval };
export type TaskMessageNode = { kind: 'taskMessage'; message: string };
type Node = TaskNode | TaskApprovalNode | TaskMessageNode;

const ICONS: Record<string, string> = { starting: 'loading~spin', running: 'sync~spin', waiting: 'bell-dot', done: 'pass', failed: 'error', stopped: 'debug-stop' };

/**
 * The Tasks view (issue 28): every background task with its status, agent, elapsed time and cost;
 * under a task, the calls it waits for, each approved or denied from its row. One queue for all
 * tasks, read from the approvals store: a task never opens a dialog of its own.
 */
export class TasksTree extends PepeTree<Node> {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly host: PepeHost,
    private readonly service: () => Promise<TaskService>,
  ) {
    super();
  }

  /** Redraws every 2 s while a task is live (their processes write the records). */
  follow(live: boolean): void {
    if (live && !this.timer) this.timer = setInterval(() => this.refresh(), 2000);
    if (!live && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  async getChildren(node?: Node): Promise<Node[]> {
    const tasks = await this.service();
    if (!node) {
      const views = tasks.views();
      this.follow(views.some((t) => t.status === 'starting' || t.status === 'running' || t.status === 'waiting'));
      if (!views.length) return [{ kind: 'taskMessage', message: 'No background tasks. Start one with the + button.' }];
      const pending = await this.pendingByTask(views);
      return views.map((t) => ({ kind: 'task', id: t.id, task: t, approvals: pending.get(t.id)?.length ?? 0 }));
    }
    if (node.kind !== 'task') return [];
    const pending = (await this.pendingByTask([node.task])).get(node.id) ?? [];
    return pending.map((a) => ({ kind: 'taskApproval', id: a.id, taskId: node.id, approval: a }));
  }

  /** The pending approvals of each task: the calls parked in its worktree. */
  async pendingByTask(tasks: TaskView[]): Promise<Map<string, PendingApproval[]>> {
    const pepe = await this.host.get();
    const out = new Map<string, PendingApproval[]>();
    for (const a of await pepe.approvalList()) {
      const place = a.workspace ?? a.cwd;
      const t = tasks.find((x) => place === x.worktree || place.startsWith(`${x.worktree}/`));
      if (t) out.set(t.id, [...(out.get(t.id) ?? []), a]);
    }
    return out;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'taskMessage') return new vscode.TreeItem(node.message);
    if (node.kind === 'taskApproval') {
      const a = node.approval;
      const item = new vscode.TreeItem(`${visibleLine(a.tool)}: ${visibleLine(callText(a.args))}`);
      item.description = `waits for approval (${a.id})`;
      item.tooltip = visibleLine(a.summary ?? '');
      item.iconPath = new vscode.ThemeIcon('shield');
      item.contextValue = 'pepe.taskApproval';
      item.accessibilityInformation = { label: `approval ${a.id} of task ${node.taskId}: ${visibleLine(a.tool)}: ${visibleLine(callText(a.args))}` };
      return item;
    }
    const t = node.task;
    const item = new vscode.TreeItem(visibleLine(t.text).slice(0, 80) || t.id, node.approvals ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    // Waiting with none of its calls left to decide: an approved one still runs where it was approved.
    const status = t.status === 'waiting' ? (node.approvals ? 'waiting for approval' : 'waiting for an approved call to finish') : t.merged ? `${t.status}, merged` : t.status;
    item.description = `${status} · ${visibleLine(t.agent)} · ${elapsed(t.elapsedMs)} · ${usd(t.costUsd)}`;
    item.tooltip = [`Task ${t.id}`, `Agent: ${visibleLine(t.agent)}`, `Status: ${status}`, `Branch: ${t.branch}`, `Folder: ${t.worktree}`, ...(t.error ? [`Error: ${visibleLine(t.error)}`] : [])].join('\n');
    item.iconPath = new vscode.ThemeIcon(ICONS[t.status] ?? 'circle-outline');
    item.contextValue = `pepe.task.${t.status === 'starting' || t.status === 'running' || t.status === 'waiting' ? 'live' : 'ended'}`;
    item.id = `task:${t.id}:${t.status}`;
    item.accessibilityInformation = { label: `task ${t.id}: ${visibleLine(t.text).slice(0, 80)}, ${item.description}` };
    return item;
  }

  override dispose(): void {
    this.follow(false);
    super.dispose();
  }
}

function callText(args: unknown): string {
  const a = args as { command?: unknown; path?: unknown };
  if (typeof a?.command === 'string') return a.command;
  if (typeof a?.path === 'string') return a.path;
  return JSON.stringify(args).slice(0, 80);
}

function elapsed(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
}

function usd(n: number): string {
  return n === 0 ? '$0' : n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}
