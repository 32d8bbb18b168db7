import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { execa } from 'execa';
import { DISARM, hostGitEnv } from '../checkpoints/host-git.js';
import { confinedCommand, confinementFailed, detectConfinement, type ConfinementPolicy } from '../sandbox/index.js';
import { findGit } from '../sandbox/host-git.js';
import { within } from '../sandbox/paths.js';
import { execaWithoutInherited } from '../sandbox/inherited-fds.js';

/**
 * git as Pepe runs it on the host for background tasks (issue 28; spec 8.1): making a task's
 * worktree and branch, its diff, committing it, merging it into the person's checkout, removing it.
 * The repository is hostile (a cloned repository's configuration is whatever its author wrote),
 * so the two defences of checkpoints apply here too, each meant to hold alone:
 *
 * 1. Disarmed: the checkpoints' `-c` settings and environment (no system or global configuration,
 *    no hooks, pager, editor, fsmonitor, protocols…), and on top of them every filter and merge
 *    driver the repository's configuration names is switched off on the command line (filters
 *    become `cat`, merge drivers fail, which shows as a conflict).
 * 2. Confined: no network, the home folder and PEPE_HOME hidden, only the places the operation
 *    must write writable (`writable`), and inside them every git folder's configuration, hooks
 *    and info kept read-only.
 *
 * Where no confinement works, git is not run (fail closed) unless PEPE_TASKS_GIT=unconfined,
 * which keeps the disarming alone.
 */
export interface TaskGitRun {
  /** GIT_DIR. */
  gitDir: string;
  /** GIT_WORK_TREE and the working folder. */
  workTree: string;
  /** The only places it may write (existing ones). */
  writable: string[];
  /** Places it may read besides the system (shown read-only even inside the hidden home). */
  readable: string[];
  pepeHome: string;
  indexFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Author and committer of the commits it makes. */
  identity?: { name: string; email: string };
}

export type TaskGitResult = { exitCode: number; stdout: string; stderr: string };

export class TaskGitError extends Error {}

/** Runs `git <DISARM> <driver overrides> <args>`; throws TaskGitError when git could not be run at all. */
export async function taskGit(args: string[], run: TaskGitRun): Promise<TaskGitResult> {
  const overrides = await driverOverrides(run);
  return rawGit([...overrides, ...args], run);
}

async function rawGit(args: string[], run: TaskGitRun): Promise<TaskGitResult> {
  const hostEnv = run.env ?? process.env;
  const env = hostGitEnv(run.gitDir, run.workTree);
  if (run.indexFile) env.GIT_INDEX_FILE = run.indexFile;
  if (run.identity) {
    env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = run.identity.name;
    env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = run.identity.email;
  }
  let file = 'git';
  let fileArgs = [...DISARM, ...args];
  if (hostEnv.PEPE_TASKS_GIT !== 'unconfined') {
    const status = await detectConfinement();
    if (!status.confined) throw new TaskGitError(`tasks run git inside the sandbox, which is not available here (${status.reason}); PEPE_TASKS_GIT=unconfined runs it without`);
    const git = findGit(env.PATH);
    if (!git) throw new TaskGitError('the git program was not found (tasks need git)');
    ({ file, args: fileArgs } = confinedCommand(taskGitPolicy(run, git), [git, ...fileArgs]));
    env.TMPDIR = '/tmp';
  }
  const r = await execa(file, fileArgs, { cwd: run.workTree, env, extendEnv: false, reject: false, stripFinalNewline: false, stdio: execaWithoutInherited(['ignore', 'pipe', 'pipe']), maxBuffer: 256 * 1024 * 1024 });
  if ((r as { code?: string }).code === 'ENOENT') throw new TaskGitError(file === 'git' ? 'the git program was not found (tasks need git)' : 'the sandbox program was not found');
  const stderr = String(r.stderr ?? '');
  if (file !== 'git' && r.exitCode === 1 && /^bwrap: /m.test(stderr)) {
    confinementFailed();
    throw new TaskGitError(`the sandbox could not start git (${stderr.trim().split('\n')[0]})`);
  }
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr };
}

/**
 * `-c` settings that switch off every filter and merge driver the repository's configuration
 * names (a `.gitattributes` line picks one; its program would run on checkout, add and merge).
 * Read in the same place and way as the command that follows, so conditional includes agree.
 */
async function driverOverrides(run: TaskGitRun): Promise<string[]> {
  const r = await rawGit(['config', '-z', '--get-regexp', '^(filter|merge)\\.'], { ...run, writable: [], indexFile: undefined });
  if (r.exitCode !== 0 && r.exitCode !== 1) throw new TaskGitError(`git could not read the repository's configuration: ${firstLine(r.stderr)}`);
  const filters = new Set<string>();
  const merges = new Set<string>();
  for (const entry of r.stdout.split('\0')) {
    const key = entry.split('\n', 1)[0]!.toLowerCase();
    const m = /^(filter|merge)\.(.+)\.([^.]+)$/s.exec(key);
    if (!m) continue;
    (m[1] === 'filter' ? filters : merges).add(m[2]!);
  }
  const out: string[] = [];
  for (const name of filters) for (const kv of ['smudge=cat', 'clean=cat', 'process=', 'required=false']) out.push('-c', `filter.${name}.${kv}`);
  for (const name of merges) out.push('-c', `merge.${name}.driver=false`, '-c', `merge.${name}.recursive=binary`);
  return out;
}

/** The confinement of one task git: see taskGit. */
export function taskGitPolicy(run: Pick<TaskGitRun, 'writable' | 'readable' | 'pepeHome' | 'workTree' | 'gitDir' | 'indexFile'>, gitProgram: string): ConfinementPolicy {
  const hidden: string[] = [];
  const places = [...run.writable, ...run.readable, run.workTree, run.gitDir];
  for (const p of [homedir(), run.pepeHome]) {
    if (!p || !isAbsolute(p) || !existsSync(p)) continue;
    const r = real(p);
    // A place that holds the home folder is never given (the caller keeps checkouts out of it).
    if (places.some((w) => within(r, real(w)) && real(w) !== r)) continue;
    hidden.push(r);
    if (r !== resolve(p)) hidden.push(resolve(p));
  }
  const writable = unique(run.writable.filter(existsSync).map(real));
  const readOnly = unique([run.workTree, run.gitDir, ...run.readable].filter(existsSync).map(real)).filter((p) => !writable.includes(p));
  // Inside a writable git folder, what decides what git runs stays read-only.
  for (const w of writable.filter(isGitFolder)) for (const name of ['config', 'config.worktree', 'hooks', 'info', 'commondir']) if (existsSync(join(w, name))) readOnly.push(join(w, name));
  const install = dirname(dirname(gitProgram));
  if (hidden.some((h) => within(install, h))) readOnly.push(install);
  return { cwd: real(run.workTree), writable, readOnly: unique(readOnly), hidden: unique(hidden), network: false, maxProcesses: 64 };
}

function isGitFolder(p: string): boolean {
  return existsSync(join(p, 'HEAD')) && (existsSync(join(p, 'objects')) || existsSync(join(p, 'commondir')));
}

export function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
