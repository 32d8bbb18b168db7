import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { UsageRecord } from '../runtime/usage.js';
import { assertTasksHomeApart } from './data-home.js';
import { LIVE_STATUSES, newTaskId, TaskStore, type TaskRecord } from './record.js';
import { findCheckout } from './repository.js';
import { personIdentity, type CommitIdentity } from './identity.js';
import { addWorktree, baseFileText, commitWorktree, diffTask, mergeTask, removeWorktree, resolveBase, type GitPlace, type MergeOutcome, type TaskDiff } from './worktree.js';

export const DEFAULT_MAX_TASKS = 4;

export interface TaskServiceDeps {
  /** The tasks folder (tasksHome()). */
  dataHome: string;
  pepeHome: string;
  env?: NodeJS.ProcessEnv;
  /** `limits.max_tasks`: how many tasks may run at once. */
  maxRunning: () => number;
  /** The spend records (usage.jsonl). */
  usage: () => readonly UsageRecord[];
  /** Whether a process still runs (tests replace it). */
  alive?: (pid: number) => boolean;
  now?: () => Date;
}

/** A task as `task list` and the Tasks view show it. */
export interface TaskView extends TaskRecord {
  elapsedMs: number;
  costUsd: number;
}

/**
 * Background tasks (issue 28): each one an agent's run in a git worktree of its own on a new
 * branch, started from the person's checkout and reviewed, merged or discarded afterwards. This
 * is the bookkeeping; the run itself is runTask (runner.ts), in a process of its own.
 */
export class TaskService {
  readonly store: TaskStore;
  private readonly alive: (pid: number) => boolean;
  private readonly now: () => Date;

  constructor(private readonly deps: TaskServiceDeps) {
    this.store = new TaskStore(deps.dataHome);
    this.alive = deps.alive ?? processAlive;
    this.now = deps.now ?? (() => new Date());
  }

  get place(): GitPlace {
    return { pepeHome: this.deps.pepeHome, env: this.deps.env, scratch: join(this.deps.dataHome, 'scratch') };
  }

  /**
   * Makes the task's record, branch and worktree (from `base`, else HEAD, of the checkout holding
   * `cwd`). Refused past `limits.max_tasks` running tasks. The caller starts its run.
   */
  async create(input: { agent: string; text: string; cwd: string; base?: string }): Promise<TaskRecord> {
    const checkout = findCheckout(input.cwd);
    assertTasksHomeApart(this.deps.dataHome, checkout.top, this.deps.pepeHome);
    const running = this.list().filter((t) => LIVE_STATUSES.includes(t.status)).length;
    const max = this.deps.maxRunning();
    if (running >= max) throw new UsageError(`${running} tasks are running and limits.max_tasks is ${max}; wait for one to finish or stop one (pepe task stop ID)`);
    this.store.ensure();
    const base = input.base ?? 'HEAD';
    const baseCommit = await resolveBase(checkout, base, this.place);
    const id = newTaskId();
    const worktree = join(this.store.worktreesDir, id);
    const branch = `pepe/task-${id}`;
    const worktreeGitDir = await addWorktree(checkout, worktree, branch, baseCommit, this.place);
    const record: TaskRecord = {
      id,
      agent: input.agent,
      text: input.text,
      status: 'starting',
      checkout: checkout.top,
      gitDir: checkout.commonDir,
      base,
      baseCommit,
      branch,
      worktree,
      worktreeGitDir,
      createdAt: this.now().toISOString(),
      turns: 0,
    };
    this.store.write(record);
    return record;
  }

  /** Every task, a live one whose process is gone marked failed. */
  list(): TaskRecord[] {
    return this.store.list().map((t) => this.settle(t));
  }

  views(): TaskView[] {
    const usage = this.deps.usage();
    return this.list().map((t) => this.view(t, usage));
  }

  get(prefix: string): TaskRecord {
    return this.settle(this.store.resolve(prefix));
  }

  viewOf(prefix: string): TaskView {
    return this.view(this.get(prefix), this.deps.usage());
  }

  /** The task whose worktree `folder` is (an approval's workspace names it), if any. */
  taskAt(folder: string): TaskRecord | undefined {
    return this.store.list().find((t) => t.worktree === folder);
  }

  private view(t: TaskRecord, usage: readonly UsageRecord[]): TaskView {
    const start = Date.parse(t.startedAt ?? t.createdAt);
    const end = t.endedAt ? Date.parse(t.endedAt) : this.now().getTime();
    const costUsd = t.sessionId ? usage.filter((r) => r.sessionId === t.sessionId).reduce((n, r) => n + r.costUsd, 0) : 0;
    return { ...t, elapsedMs: Math.max(0, end - start), costUsd };
  }

  private settle(t: TaskRecord): TaskRecord {
    if (!LIVE_STATUSES.includes(t.status)) return t;
    // A task still starting has no process yet for a moment; one that never got one in a minute failed.
    const stale = t.pid === undefined ? this.now().getTime() - Date.parse(t.createdAt) > 60_000 : !this.alive(t.pid);
    if (!stale) return t;
    const status = t.stopRequested ? 'stopped' : 'failed';
    return this.store.update(t.id, () => ({ status, pid: undefined, endedAt: this.now().toISOString(), error: t.stopRequested ? t.error : 'the process running the task ended without reporting (it was killed, or the machine restarted)' }));
  }

  async diff(prefix: string, opts: { patch?: boolean } = {}): Promise<{ task: TaskRecord; diff: TaskDiff }> {
    const task = this.get(prefix);
    return { task, diff: await diffTask(task, this.place, opts) };
  }

  /** A file's text at the task's base, or null when it did not exist there. */
  async baseText(prefix: string, path: string): Promise<string | null> {
    return baseFileText(this.get(prefix), path, this.place);
  }

  /** Asks the task's process to stop (it ends its turn cleanly and records `stopped`). */
  stop(prefix: string): TaskRecord {
    const task = this.get(prefix);
    if (!LIVE_STATUSES.includes(task.status)) throw new UsageError(`task ${task.id} is ${task.status}, not running`);
    const next = this.store.update(task.id, () => ({ stopRequested: true }));
    if (task.pid !== undefined) {
      try {
        process.kill(task.pid, 'SIGTERM');
      } catch {
        // Gone already: settled below.
      }
    }
    return next;
  }

  /**
   * Commits what the task's worktree holds onto its branch (so the branch can be pushed for a pull
   * request), by the person's git identity, with `message` or one made from the task's text.
   */
  async commit(prefix: string, opts: { message?: string } = {}): Promise<{ task: TaskRecord; commit: string; made: boolean; identity: CommitIdentity }> {
    const task = this.ended(prefix, 'commit');
    if (opts.message !== undefined && !opts.message.trim()) throw new UsageError('the commit message is empty');
    const identity = await personIdentity(findCheckout(task.checkout), this.place);
    const { commit, made } = await commitWorktree(task, this.place, { identity, ...(opts.message !== undefined ? { message: opts.message } : {}) });
    return { task, commit, made, identity };
  }

  async merge(prefix: string): Promise<{ task: TaskRecord; outcome: MergeOutcome; identity: CommitIdentity }> {
    const task = this.ended(prefix, 'merge');
    if (task.merged) throw new UsageError(`task ${task.id} was merged already (${task.merged.commit.slice(0, 12)})`);
    const checkout = findCheckout(task.checkout);
    const identity = await personIdentity(checkout, this.place);
    const outcome = await mergeTask(task, checkout, this.place, identity);
    if (outcome.kind !== 'merged' && outcome.kind !== 'nothing') return { task, outcome, identity };
    const merged = this.store.update(task.id, () => ({ merged: { how: outcome.kind === 'merged' ? outcome.how : 'fast-forward', commit: outcome.commit, at: this.now().toISOString() } }));
    return { task: merged, outcome, identity };
  }

  /** The task, refused while it still runs (its worktree changes under whatever reads it). */
  private ended(prefix: string, what: string): TaskRecord {
    const task = this.get(prefix);
    if (LIVE_STATUSES.includes(task.status)) throw new UsageError(`task ${task.id} is still ${task.status}; stop it first (pepe task stop ${task.id}), then ${what} it`);
    return task;
  }

  /** Removes the task's worktree, branch and record. */
  async discard(prefix: string): Promise<TaskRecord> {
    const task = this.ended(prefix, 'discard');
    await removeWorktree(task, this.place);
    this.store.remove(task.id);
    return task;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
