import { execFile } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { visibleLine } from '../../core/display.js';
import type { CommitIdentity, TaskService } from '../../core/tasks/index.js';
import { loadCore } from '../core-loader.js';
import type { PepeHost } from '../host/pepe-host.js';
import { TasksTree, type TaskApprovalNode, type TaskNode } from './tasks-tree.js';

export const TASK_BASE_SCHEME = 'pepe-task-base';

export interface TasksUiDeps {
  host: PepeHost;
  log: vscode.LogOutputChannel;
  /** The folder tasks start from (the first workspace folder). */
  workspace: () => string;
  /** `--home` for the CLI, when the pepe.home setting names one. */
  home: () => string | undefined;
}

export interface TasksTesting {
  tree: TasksTree;
  service: () => Promise<TaskService>;
}

/**
 * Background tasks in VS Code (issue 28): the "New Background Task" command and button, the Tasks
 * view, and its row actions (open the conversation, the diff against the base in VS Code's diff
 * editor, commit for a pull request, merge, discard, stop, and approve or deny a task's parked calls). A task runs in a
 * `pepe` process of its own (the bundled CLI, started detached), so it survives a window reload;
 * the view reads the records that process writes.
 */
export function registerTasks(deps: TasksUiDeps): { disposables: vscode.Disposable[]; testing: TasksTesting } {
  const service = async (): Promise<TaskService> => {
    const pepe = await deps.host.get();
    const core = loadCore();
    return new core.TaskService({ dataHome: core.tasksHome(process.env), pepeHome: pepe.paths.home, env: process.env, maxRunning: () => pepe.config.limits?.max_tasks ?? core.DEFAULT_MAX_TASKS, usage: () => pepe.usageRecords() });
  };
  const tree = new TasksTree(deps.host, service);
  const base = new BaseDocs(service);
  const report = (e: unknown) => void vscode.window.showErrorMessage(`Pepe: ${e instanceof Error ? e.message : String(e)}`);
  const taskOf = async (node?: TaskNode | { id?: string }): Promise<string | undefined> => {
    if (node?.id) return node.id;
    const tasks = (await service()).views();
    const picked = await vscode.window.showQuickPick(tasks.map((t) => ({ label: visibleLine(t.text).slice(0, 80), description: `${t.status} · ${t.agent}`, id: t.id })), { placeHolder: 'a background task' });
    return picked?.id;
  };
  // A command that changes a task redraws the view after it; one that only reads (the diff, the
  // conversation) does not: a redraw closes a context menu the person has just opened on a row.
  const guarded =
    <A extends unknown[]>(fn: (...a: A) => Promise<unknown>, changes = true) =>
    async (...a: A) => {
      try {
        return await fn(...a);
      } catch (e) {
        report(e);
        return undefined;
      } finally {
        if (changes) tree.refresh();
      }
    };

  const disposables: vscode.Disposable[] = [
    tree,
    vscode.window.createTreeView('pepe.tasks', { treeDataProvider: tree }),
    vscode.workspace.registerTextDocumentContentProvider(TASK_BASE_SCHEME, base),
    deps.host.onDidChange(() => tree.refresh()),
    vscode.commands.registerCommand('pepe.task.refresh', () => tree.refresh()),
    vscode.commands.registerCommand(
      'pepe.task.new',
      guarded(async (args?: { agent?: string; text?: string; base?: string }) => {
        // Checked by hand (zod stays out of activation): each given field must be text.
        for (const key of ['agent', 'text', 'base'] as const) if (args?.[key] !== undefined && typeof args[key] !== 'string') throw new Error(`pepe.task.new: invalid arguments (${key}: expected text)`);
        const pepe = await deps.host.get();
        const agents = Object.keys(pepe.config.agents ?? {});
        const agent = args?.agent ?? (agents.length === 1 ? agents[0] : await vscode.window.showQuickPick(agents, { placeHolder: 'the agent that works on the task' }));
        if (!agent) return undefined;
        const text = args?.text ?? (await vscode.window.showInputBox({ prompt: `What should ${agent} do? It works in a git worktree of its own, on a new branch from HEAD.` }));
        if (!text) return undefined;
        const started = await startTask(deps, agent, text, args?.base);
        void vscode.window.showInformationMessage(`Pepe: started task ${started.id} (${agent}) on branch ${started.branch}.`);
        return started;
      }),
    ),
    vscode.commands.registerCommand(
      'pepe.task.openConversation',
      guarded(async (node?: TaskNode) => {
        const id = await taskOf(node);
        if (!id) return;
        const t = (await service()).get(id);
        if (!t.sessionId) throw new Error(`task ${t.id} has no conversation yet`);
        await vscode.commands.executeCommand('pepe.chat.open', { agent: t.agent, sessionId: t.sessionId });
      }, false),
    ),
    vscode.commands.registerCommand(
      'pepe.task.diff',
      guarded(async (node?: TaskNode) => {
        const id = await taskOf(node);
        if (!id) return undefined;
        const { task, diff } = await (await service()).diff(id, { patch: false });
        if (!diff.files.length) return void vscode.window.showInformationMessage(`Pepe: task ${task.id} has no changes yet.`);
        const baseUri = (path: string, empty = false) => vscode.Uri.from({ scheme: TASK_BASE_SCHEME, path: `/${task.id}/${path}`, query: empty ? 'empty' : '' });
        const resources = diff.files.map((f) => {
          const right = f.status === 'D' ? baseUri(f.path, true) : vscode.Uri.file(join(task.worktree, f.path));
          const left = f.status === 'A' ? baseUri(f.path, true) : baseUri(f.path);
          return [vscode.Uri.file(join(task.worktree, f.path)), left, right];
        });
        await vscode.commands.executeCommand('vscode.changes', `Task ${task.id}: ${visibleLine(task.text).slice(0, 40)} (against ${task.base})`, resources);
        return diff.files;
      }, false),
    ),
    vscode.commands.registerCommand(
      'pepe.task.merge',
      guarded(async (node?: TaskNode, opts?: { yes?: boolean }) => {
        const id = await taskOf(node);
        if (!id) return undefined;
        const tasks = await service();
        const t = tasks.get(id);
        if (!opts?.yes) {
          const ok = await vscode.window.showWarningMessage(`Merge task ${t.id} (${t.branch}) into the branch checked out in ${t.checkout}?`, { modal: true, detail: 'Its worktree is committed onto its branch, then merged: a fast-forward when possible, else a merge commit. Conflicts are shown and nothing changes.' }, 'Merge');
          if (ok !== 'Merge') return undefined;
        }
        const { outcome, identity } = await tasks.merge(t.id);
        if (outcome.kind === 'merged' && identity.from === 'fallback') void vscode.window.showWarningMessage(`Pepe: merged task ${t.id} (${outcome.how === 'fast-forward' ? 'fast-forward' : 'a merge commit'}) by ${identityText(identity)}: no git identity is set (user.name and user.email).`);
        else if (outcome.kind === 'merged') void vscode.window.showInformationMessage(`Pepe: merged task ${t.id} (${outcome.how === 'fast-forward' ? 'fast-forward' : 'a merge commit'}) by ${identityText(identity)}.`);
        else if (outcome.kind === 'nothing') void vscode.window.showInformationMessage(`Pepe: task ${t.id} has nothing your branch lacks.`);
        else if (outcome.kind === 'conflict') void vscode.window.showErrorMessage(`Pepe: task ${t.id} was not merged: it conflicts with your branch in ${outcome.files.map(visibleLine).join(', ')}. Nothing was changed; its branch ${t.branch} holds its work.`);
        else void vscode.window.showErrorMessage(`Pepe: task ${t.id} was not merged: ${visibleLine(outcome.why)}. Nothing was changed.`);
        return outcome;
      }),
    ),
    vscode.commands.registerCommand(
      'pepe.task.discard',
      guarded(async (node?: TaskNode, opts?: { yes?: boolean }) => {
        const id = await taskOf(node);
        if (!id) return undefined;
        const tasks = await service();
        const t = tasks.get(id);
        if (!opts?.yes) {
          const ok = await vscode.window.showWarningMessage(`Discard task ${t.id}?`, { modal: true, detail: `Its worktree ${t.worktree} and branch ${t.branch} are removed.${t.merged ? '' : ' Its changes were not merged and will be lost.'}` }, 'Discard');
          if (ok !== 'Discard') return undefined;
        }
        await tasks.discard(t.id);
        return true;
      }),
    ),
    vscode.commands.registerCommand(
      'pepe.task.commit',
      guarded(async (node?: TaskNode, opts?: { message?: string }) => {
        if (opts?.message !== undefined && typeof opts.message !== 'string') throw new Error('pepe.task.commit: invalid arguments (message: expected text)');
        const id = await taskOf(node);
        if (!id) return undefined;
        const tasks = await service();
        const t = tasks.get(id);
        const first = visibleLine(t.text).replace(/\s+/g, ' ').trim().slice(0, 72);
        const typed = opts?.message ?? (await vscode.window.showInputBox({ title: `Commit task ${t.id} for a pull request`, prompt: `The commit message. The work is committed on the branch ${t.branch} by your git identity; your checkout is not touched.`, value: first, validateInput: (v) => (v.trim() ? undefined : 'A commit message is needed') }));
        if (typed === undefined) return undefined;
        // The suggested line kept as it is: the full default message (it also names the task and agent).
        const { commit, made, identity } = await tasks.commit(t.id, typed === first && opts?.message === undefined ? {} : { message: typed });
        if (!made) {
          void vscode.window.showInformationMessage(`Pepe: task ${t.id} has nothing new to commit; its branch ${t.branch} is at ${commit.slice(0, 12)}.`);
          return { commit, made, identity };
        }
        const by = identityText(identity);
        const push = `Push it for a pull request with: git push <remote> ${t.branch}`;
        const said = identity.from === 'fallback'
          ? vscode.window.showWarningMessage(`Pepe: committed task ${t.id}'s work on branch ${t.branch} (${commit.slice(0, 12)}) by ${by}: no git identity is set (user.name and user.email). ${push}`, 'Copy Branch Name')
          : vscode.window.showInformationMessage(`Pepe: committed task ${t.id}'s work on branch ${t.branch} (${commit.slice(0, 12)}) by ${by}. ${push}`, 'Copy Branch Name');
        void said.then((picked) => (picked ? vscode.env.clipboard.writeText(t.branch) : undefined));
        return { commit, made, identity };
      }),
    ),
    vscode.commands.registerCommand(
      'pepe.task.stop',
      guarded(async (node?: TaskNode) => {
        const id = await taskOf(node);
        if (id) (await service()).stop(id);
      }),
    ),
    vscode.commands.registerCommand('pepe.task.approve', guarded((node: TaskApprovalNode) => decide(deps, 'approve', node))),
    vscode.commands.registerCommand('pepe.task.deny', guarded((node: TaskApprovalNode) => decide(deps, 'deny', node))),
  ];
  return { disposables, testing: { tree, service } };
}

/**
 * Approves (and runs, in the task's worktree, where it was parked) or denies one of a task's parked
 * calls from its row in the Tasks view. The task goes on once none of its calls wait.
 */
async function decide(deps: TasksUiDeps, verb: 'approve' | 'deny', node: TaskApprovalNode): Promise<boolean> {
  if (typeof node?.id !== 'string' || typeof node.taskId !== 'string') throw new Error(`pepe.task.${verb}: a parked call's row of the Tasks view is needed`);
  const pepe = await deps.host.get();
  if (verb === 'deny') {
    await pepe.approvalDeny(node.id, {});
    return true;
  }
  const outcome = await pepe.approveNow(node.id);
  void vscode.window.showInformationMessage(`Pepe: approved ${node.id} for task ${node.taskId}; ${outcome.ran ? (outcome.isError ? 'it ran and failed' : 'it ran') : 'it was not run'}. The task goes on once none of its calls wait.`);
  return outcome.ran;
}

function identityText(identity: CommitIdentity): string {
  return `${visibleLine(identity.name)} <${visibleLine(identity.email)}>`;
}

/** Runs `pepe task start … --json` with the bundled CLI (it returns once the task's own process runs). */
function startTask(deps: TasksUiDeps, agent: string, text: string, base?: string): Promise<{ id: string; branch: string; worktree: string }> {
  const home = deps.home();
  const args = [join(__dirname, 'cli.js'), ...(home ? ['--home', home] : []), 'task', 'start', agent, text, '--json', ...(base ? ['--base', base] : [])];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: deps.workspace(), env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(String(stderr).trim().replace(/^pepe: /, '') || error.message));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`pepe task start printed no task: ${String(stderr).trim()}`));
      }
    });
  });
}

/** The left side of a task's diff: a file as it is at the task's base. */
class BaseDocs implements vscode.TextDocumentContentProvider {
  constructor(private readonly service: () => Promise<TaskService>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query === 'empty') return '';
    const [, id, ...rest] = uri.path.split('/');
    if (!id || !rest.length) return '';
    return (await (await this.service()).baseText(id, rest.join('/'))) ?? '';
  }
}
