import { mkdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { Checkout } from './repository.js';
import { real } from './repository.js';
import { firstLine, taskGit, TaskGitError, type TaskGitRun } from './task-git.js';
import type { TaskRecord } from './record.js';
import type { CommitIdentity } from './identity.js';

/** What every task git needs besides its operation. */
export interface GitPlace {
  pepeHome: string;
  env?: NodeJS.ProcessEnv;
  /** A private scratch folder in the tasks folder (temporary index files). */
  scratch: string;
}

/** The commit `ref` names in the checkout (HEAD when absent). */
export async function resolveBase(checkout: Checkout, ref: string, place: GitPlace): Promise<string> {
  if (!ref || ref.startsWith('-') || /[\0\n]/.test(ref)) throw new UsageError(`"${ref}" is not a git revision`);
  const r = await taskGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { ...readIn(checkout, place) });
  const commit = r.stdout.trim();
  if (r.exitCode !== 0 || !/^[0-9a-f]{40,64}$/.test(commit)) throw new UsageError(`"${ref}" names no commit in ${checkout.top}`);
  return commit;
}

/** Makes the worktree `folder` on a new branch `branch` at `commit`; returns its own git folder. */
export async function addWorktree(checkout: Checkout, folder: string, branch: string, commit: string, place: GitPlace): Promise<string> {
  const exists = await taskGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], readIn(checkout, place));
  if (exists.exitCode === 0) throw new UsageError(`the branch ${branch} already exists`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const r = await taskGit(['worktree', 'add', '--quiet', '-b', branch, '--', folder, commit], {
    gitDir: checkout.commonDir,
    workTree: checkout.top,
    writable: [checkout.commonDir, folder],
    readable: [checkout.top],
    pepeHome: place.pepeHome,
    env: place.env,
  });
  if (r.exitCode !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new TaskGitError(`git could not make the task's worktree: ${firstLine(r.stderr)}`);
  }
  const m = /^gitdir: (.+)$/m.exec(readFileSync(join(folder, '.git'), 'utf8'));
  const own = m ? real(resolve(folder, m[1]!.trim())) : '';
  if (!own || real(resolve(own, '..')) !== real(join(checkout.commonDir, 'worktrees'))) throw new TaskGitError(`the new worktree's git file does not name a folder under ${join(checkout.commonDir, 'worktrees')}`);
  return own;
}

export interface TaskDiff {
  /** `git diff` text of the worktree (tracked, changed and new files) against the base. */
  patch: string;
  stat: string;
  files: { status: string; path: string }[];
}

/**
 * The task's changes against its base: everything in its worktree, committed or not, new files
 * included (ignored ones left out), through a temporary index, so nothing the task has is changed.
 */
export async function diffTask(task: TaskRecord, place: GitPlace, opts: { patch?: boolean } = {}): Promise<TaskDiff> {
  mkdirSync(place.scratch, { recursive: true, mode: 0o700 });
  const indexFile = join(place.scratch, `${task.id}.${process.pid}.index`);
  const run = { ...inWorktree(task, place), writable: [join(task.gitDir, 'objects'), place.scratch], indexFile };
  try {
    await must(taskGit(['read-tree', task.baseCommit], run), 'read the base');
    await must(taskGit(['add', '-A', '--', '.'], run), 'read the worktree');
    const diffArgs = ['diff', '--cached', '--no-ext-diff', '--no-textconv', '--no-color', '--find-renames'];
    const names = await must(taskGit([...diffArgs, '--name-status', '-z', task.baseCommit], run), 'compare');
    const stat = await must(taskGit([...diffArgs, '--stat', task.baseCommit], run), 'compare');
    const patch = opts.patch === false ? '' : (await must(taskGit([...diffArgs, '--binary', task.baseCommit], run), 'compare')).stdout;
    return { patch, stat: stat.stdout, files: parseNameStatus(names.stdout) };
  } finally {
    rmSync(indexFile, { force: true });
    rmSync(`${indexFile}.lock`, { force: true });
  }
}

function parseNameStatus(z: string): { status: string; path: string }[] {
  const parts = z.split('\0').filter((p) => p !== '');
  const out: { status: string; path: string }[] = [];
  for (let i = 0; i < parts.length; ) {
    const status = parts[i++]!;
    if (/^[RC]/.test(status)) {
      i++; // the old name
      out.push({ status: status[0]!, path: parts[i++] ?? '' });
    } else out.push({ status, path: parts[i++] ?? '' });
  }
  return out;
}

/** A file's text at the task's base (for a side-by-side diff); null when the base has no such file. */
export async function baseFileText(task: TaskRecord, path: string, place: GitPlace): Promise<string | null> {
  if (!path || /[\0\n]/.test(path) || path.startsWith('/')) throw new UsageError(`"${path}" is not a path in the task`);
  const r = await taskGit(['cat-file', 'blob', `${task.baseCommit}:${path}`], inWorktree(task, place));
  return r.exitCode === 0 ? r.stdout : null;
}

/** The message of the commit of a task's work when none is given: its text's first line, then where it came from. */
export function defaultCommitMessage(task: Pick<TaskRecord, 'id' | 'agent' | 'text'>): string {
  return `${oneLine(task.text).slice(0, 72) || 'task'}\n\nBackground task ${task.id} of agent ${task.agent}.`;
}

/**
 * Commits what the worktree holds onto the task's branch, as `identity` (the person's), with
 * `message` (else defaultCommitMessage). Returns the branch's tip and whether a commit was made
 * (nothing new: the tip as it was).
 */
export async function commitWorktree(task: TaskRecord, place: GitPlace, opts: { identity: CommitIdentity; message?: string }): Promise<{ commit: string; made: boolean }> {
  const run = { ...inWorktree(task, place), writable: [task.gitDir, task.worktreeGitDir], identity: opts.identity };
  await must(taskGit(['add', '-A', '--', '.'], run), 'stage the worktree');
  const staged = await taskGit(['diff', '--cached', '--quiet', '--no-ext-diff', 'HEAD'], run);
  const made = staged.exitCode === 1;
  if (made) await must(taskGit(['commit', '--quiet', '--no-verify', '--allow-empty-message', '-m', opts.message ?? defaultCommitMessage(task)], run), 'commit the worktree');
  else if (staged.exitCode !== 0) throw new TaskGitError(`git could not compare the worktree: ${firstLine(staged.stderr)}`);
  const tip = await must(taskGit(['rev-parse', '--verify', 'HEAD'], run), 'read the branch');
  return { commit: tip.stdout.trim(), made };
}

export type MergeOutcome =
  | { kind: 'merged'; how: 'fast-forward' | 'merge-commit'; commit: string }
  | { kind: 'nothing'; commit: string }
  | { kind: 'conflict'; files: string[] }
  | { kind: 'refused'; why: string };

/**
 * Merges the task's branch into the branch the checkout has out: a fast-forward when the checkout
 * has not moved, else a merge commit. Conflicts are found first without touching anything
 * (`git merge-tree`) and reported with their files; git's own refusal (local changes in the way)
 * is reported too. Never a silent outcome.
 */
export async function mergeTask(task: TaskRecord, checkout: Checkout, place: GitPlace, identity: CommitIdentity): Promise<MergeOutcome> {
  const { commit: tip } = await commitWorktree(task, place, { identity });
  const read = readIn(checkout, place);
  const head = (await must(taskGit(['rev-parse', '--verify', 'HEAD'], read), 'read the checkout')).stdout.trim();
  const already = await taskGit(['merge-base', '--is-ancestor', tip, head], read);
  if (already.exitCode === 0) return { kind: 'nothing', commit: head };
  const ff = (await taskGit(['merge-base', '--is-ancestor', head, tip], read)).exitCode === 0;
  if (!ff) {
    const probe = await taskGit(['merge-tree', '--write-tree', '--name-only', '--no-messages', head, tip], { ...read, writable: [join(checkout.commonDir, 'objects')] });
    if (probe.exitCode === 1) return { kind: 'conflict', files: probe.stdout.split('\n').slice(1).filter(Boolean) };
    if (probe.exitCode !== 0) return { kind: 'refused', why: `git could not try the merge: ${firstLine(probe.stderr)}` };
  }
  const write: TaskGitRun = { ...read, writable: unique([checkout.top, checkout.gitDir, checkout.commonDir]), identity };
  const message = `Merge task ${task.id} (${task.agent}): ${oneLine(task.text).slice(0, 60)}`;
  const r = await taskGit(ff ? ['merge', '--ff-only', '--quiet', tip] : ['merge', '--no-ff', '--no-edit', '--quiet', '-m', message, tip], write);
  if (r.exitCode !== 0) {
    const why = firstLine(r.stderr) || firstLine(r.stdout) || `git merge exited with ${r.exitCode}`;
    // A merge left half-done (a driver that failed) is undone, so the checkout is as it was.
    if (!ff) await taskGit(['merge', '--abort'], write);
    return { kind: 'refused', why };
  }
  const now = (await must(taskGit(['rev-parse', '--verify', 'HEAD'], read), 'read the checkout')).stdout.trim();
  return { kind: 'merged', how: ff ? 'fast-forward' : 'merge-commit', commit: now };
}

/** Removes the task's worktree folder and its branch. */
export async function removeWorktree(task: TaskRecord, place: GitPlace): Promise<void> {
  // The folder is the task's: removed by Pepe itself (links are removed, never followed).
  if (existsSync(task.worktree)) rmSync(task.worktree, { recursive: true, force: true });
  const run: TaskGitRun = { gitDir: task.gitDir, workTree: task.checkout, writable: [task.gitDir], readable: [task.checkout], pepeHome: place.pepeHome, env: place.env };
  await must(taskGit(['worktree', 'prune'], run), 'forget the worktree');
  const gone = await taskGit(['branch', '-D', '--', task.branch], run);
  if (gone.exitCode !== 0 && !/not found/.test(gone.stderr)) throw new TaskGitError(`git could not remove the branch ${task.branch}: ${firstLine(gone.stderr)}`);
}

function readIn(checkout: Checkout, place: GitPlace): TaskGitRun {
  return { gitDir: checkout.gitDir, workTree: checkout.top, writable: [], readable: unique([checkout.top, checkout.gitDir, checkout.commonDir]), pepeHome: place.pepeHome, env: place.env };
}

function inWorktree(task: TaskRecord, place: GitPlace): TaskGitRun {
  return { gitDir: task.worktreeGitDir, workTree: task.worktree, writable: [], readable: [task.worktree, task.worktreeGitDir, task.gitDir], pepeHome: place.pepeHome, env: place.env };
}

async function must(p: Promise<{ exitCode: number; stdout: string; stderr: string }>, what: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const r = await p;
  if (r.exitCode !== 0) throw new TaskGitError(`git could not ${what}: ${firstLine(r.stderr) || `exit ${r.exitCode}`}`);
  return r;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

