import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from '../zod.js';
import { UsageError } from '../errors.js';
import { randomHex } from '../random-id.js';

/**
 * One background task's record (issue 28): a JSON file per task in the tasks folder, written
 * whole (a temporary file renamed over it) by the CLI that started it and by the process that
 * runs it. Read back through zod: a file that does not parse is left out of the list, never
 * trusted.
 */
export const TASK_STATUSES = ['starting', 'running', 'waiting', 'done', 'failed', 'stopped'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses of a task whose process still works (or is about to). */
export const LIVE_STATUSES: readonly TaskStatus[] = ['starting', 'running', 'waiting'];

const ID = /^[a-z0-9]{8,32}$/;

export const TaskRecord = z.object({
  id: z.string().check(z.regex(ID)),
  agent: z.string().check(z.minLength(1)),
  text: z.string(),
  status: z.enum(TASK_STATUSES),
  /** The person's checkout (its top folder) and its shared git folder. */
  checkout: z.string(),
  gitDir: z.string(),
  /** What the task started from: the name given (or HEAD) and its commit. */
  base: z.string(),
  baseCommit: z.string().check(z.regex(/^[0-9a-f]{40,64}$/)),
  branch: z.string(),
  worktree: z.string(),
  /** The linked worktree's own git folder (`<gitDir>/worktrees/<name>`). */
  worktreeGitDir: z.string(),
  sessionId: z.optional(z.string()),
  /** The process that runs the task (detached), while it runs. */
  pid: z.optional(z.int().check(z.positive())),
  createdAt: z.string(),
  startedAt: z.optional(z.string()),
  endedAt: z.optional(z.string()),
  /** Turns the task took (the first, then one after each batch of decided approvals). */
  turns: z._default(z.int().check(z.nonnegative()), 0),
  /** The last turn's status (ok, max_steps, budget…) and its answer's start. */
  lastTurn: z.optional(z.string()),
  summary: z.optional(z.string()),
  error: z.optional(z.string()),
  /** Parked approvals the task waits for. */
  waitingFor: z.optional(z.array(z.string())),
  /** Set by `task stop`: the runner ends at its next chance. */
  stopRequested: z.optional(z.boolean()),
  merged: z.optional(z.object({ how: z.enum(['fast-forward', 'merge-commit']), commit: z.string(), at: z.string() })),
});
export type TaskRecord = z.infer<typeof TaskRecord>;

export function newTaskId(): string {
  return randomHex(6);
}

export class TaskStore {
  readonly recordsDir: string;
  readonly worktreesDir: string;
  readonly logsDir: string;

  constructor(readonly dataHome: string) {
    this.recordsDir = join(dataHome, 'records');
    this.worktreesDir = join(dataHome, 'worktrees');
    this.logsDir = join(dataHome, 'logs');
  }

  ensure(): void {
    for (const d of [this.recordsDir, this.worktreesDir, this.logsDir]) mkdirSync(d, { recursive: true, mode: 0o700 });
  }

  file(id: string): string {
    if (!ID.test(id)) throw new UsageError(`"${id}" is not a task id`);
    return join(this.recordsDir, `${id}.json`);
  }

  logFile(id: string): string {
    return join(this.logsDir, `${id}.log`);
  }

  write(record: TaskRecord): void {
    const checked = TaskRecord.parse(record);
    this.ensure();
    const file = this.file(checked.id);
    const tmp = `${file}.${process.pid}.${randomHex(3)}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(checked, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  }

  /** The record, or null when there is none or it does not parse. */
  read(id: string): TaskRecord | null {
    try {
      const parsed = TaskRecord.safeParse(JSON.parse(readFileSync(this.file(id), 'utf8')));
      return parsed.success && parsed.data.id === id ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** Reads, changes and writes back one record (the last writer wins; each writer changes its own fields). */
  update(id: string, change: (r: TaskRecord) => Partial<TaskRecord>): TaskRecord {
    const current = this.read(id);
    if (!current) throw new UsageError(`no task ${id}`);
    const next = { ...current, ...change(current) };
    this.write(next);
    return next;
  }

  remove(id: string): void {
    rmSync(this.file(id), { force: true });
    rmSync(this.logFile(id), { force: true });
  }

  list(): TaskRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.recordsDir);
    } catch {
      return [];
    }
    const out: TaskRecord[] = [];
    for (const n of names) {
      const m = /^([a-z0-9]{8,32})\.json$/.exec(n);
      if (!m) continue;
      const r = this.read(m[1]!);
      if (r) out.push(r);
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /** The task a unique prefix of its id names. */
  resolve(prefix: string): TaskRecord {
    const p = prefix.trim().toLowerCase();
    if (!/^[a-z0-9]+$/.test(p)) throw new UsageError(`"${prefix}" is not a task id`);
    const hits = this.list().filter((r) => r.id.startsWith(p));
    if (hits.length === 0) throw new UsageError(`no task ${prefix} (pepe task list shows them)`);
    if (hits.length > 1) throw new UsageError(`"${prefix}" names ${hits.length} tasks (${hits.map((h) => h.id).join(', ')}); give more of the id`);
    return hits[0]!;
  }
}
