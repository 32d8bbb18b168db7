import { closeSync, lstatSync, openSync, readSync, readdirSync, realpathSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { FolderListings, type FolderEntry } from './folder-listings.js';
import { within } from './paths.js';

/**
 * The files that decide what git runs, found in the writable places before a command starts
 * (spec 8.1): every repository at any depth (a `.git` folder, a `.git` file and where it points,
 * a bare repository), the `commondir` it shares, its submodules under `modules/` (names may hold
 * slashes: modules/a/b) and its linked worktrees. The sandbox keeps these read-only; the same scan
 * after the command shows what it created or changed.
 *
 * Bounds: at most MAX_FOLDERS folders are read, at most MAX_DEPTH deep, links are not followed
 * (git reaches a linked folder at its real place, which the scan reaches on its own when it is in
 * a writable place). Nothing is skipped by name: a repository inside node_modules is still obeyed
 * by git. When a bound is hit, or a folder cannot be listed whole (folder-listings.ts), `cutOff`
 * says so: the command's result says the check was partial and the run is tainted (fail closed).
 */
export interface GitControlScan {
  /** The places scanned (real paths). */
  roots: string[];
  /** Where each repository's git folder is (`.git`, a bare repository, a submodule's or worktree's). */
  repos: string[];
  /** Existing files and folders that decide what git runs: read-only to a command. */
  control: string[];
  /** A repository's missing hooks folder: an empty read-only folder in its place. */
  missingHooks: string[];
  /** Unix sockets in the writable places: unreachable (a host program may listen on them). */
  sockets: string[];
  /** Every checked path (present or not) with a cheap fingerprint: inode, size, change time. */
  fingerprint: Map<string, string>;
  /** Why the scan stopped early, or null when it saw everything. */
  cutOff: string | null;
}

export const MAX_FOLDERS = 20_000;
export const MAX_DEPTH = 48;

/** What git reads in a git folder to decide what to run or where its configuration is. */
const REPO_CONTROL = ['config', 'config.worktree', 'commondir', 'gitdir', 'info', 'hooks'];
/** Read in a linked worktree's folder under `worktrees/`. */
const WORKTREE_CONTROL = ['gitdir', 'commondir', 'config.worktree'];

/** The folders read by this process's scans, each read again only when it changed (folder-listings.ts). */
const sharedListings = new FolderListings();

/** Folders a scan reads between two chances for the event loop to run (scanGitControlAsync). */
export const FOLDERS_PER_STEP = 256;

type ScanLimits = { maxFolders?: number; maxDepth?: number };

/** The scan, whole, in one go (the sandbox's policy when no scan is given). */
export function scanGitControl(roots: string[], limits: ScanLimits = {}, listings: FolderListings = sharedListings): GitControlScan {
  const steps = scanSteps(roots, limits, listings);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same scan, letting the event loop run every FOLDERS_PER_STEP folders: a first scan of a large
 * workspace takes tens to hundreds of milliseconds, which in the extension host would freeze the
 * window, twice per command.
 */
export async function scanGitControlAsync(roots: string[], limits: ScanLimits = {}, listings: FolderListings = sharedListings): Promise<GitControlScan> {
  const steps = scanSteps(roots, limits, listings);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((next) => setImmediate(next));
  }
}

function* scanSteps(roots: string[], limits: ScanLimits, listings: FolderListings): Generator<void, GitControlScan> {
  const maxFolders = limits.maxFolders ?? MAX_FOLDERS;
  const maxDepth = limits.maxDepth ?? MAX_DEPTH;
  const scan: GitControlScan = { roots: roots.map(realOr), repos: [], control: [], missingHooks: [], sockets: [], fingerprint: new Map(), cutOff: null };
  listings.beginScan();
  const seenRepos = new Set<string>();
  let folders = 0;
  const inRoots = (p: string) => roots.some((r) => within(p, r));

  const watch = (p: string, present: boolean) => {
    scan.fingerprint.set(p, present ? stamp(p) : 'missing');
    if (present) scan.control.push(p);
  };

  const addRepo = (gitDir: string, workTree: string | null): void => {
    const dir = realOr(gitDir);
    if (seenRepos.has(dir) || !inRoots(dir) || !isDir(dir)) return;
    seenRepos.add(dir);
    scan.repos.push(dir);
    scan.fingerprint.set(dir, 'repo');
    for (const name of REPO_CONTROL) {
      const p = join(dir, name);
      const present = exists(p);
      if (name === 'hooks' && !present) scan.missingHooks.push(p);
      watch(p, present);
    }
    const config = readText(join(dir, 'config'));
    // `core.hooksPath = .husky`: hooks kept in the working tree.
    const hooksPath = /^\s*hookspath\s*=\s*(.+?)\s*$/im.exec(config)?.[1]?.replace(/^"(.*)"$/, '$1');
    if (hooksPath && !hooksPath.startsWith('~')) {
      const p = resolve(workTree ?? dir, hooksPath);
      if (exists(p) && inRoots(realOr(p))) watch(realOr(p), true);
    }
    // A shared git folder (`commondir`) holds the configuration and hooks git uses.
    const common = readText(join(dir, 'commondir')).trim();
    if (common) addRepo(resolve(dir, common), null);
    // Linked worktrees: their pointers, and the `.git` file each one's `gitdir` names.
    for (const wt of subdirs(join(dir, 'worktrees'))) {
      for (const name of WORKTREE_CONTROL) watch(join(wt, name), exists(join(wt, name)));
      const back = readText(join(wt, 'gitdir')).trim();
      if (back && isAbsolute(back) && exists(back) && inRoots(back)) watch(back, true);
    }
    // Submodules: every git folder at any depth under modules/.
    const queue = [join(dir, 'modules')];
    for (let i = 0; i < queue.length; i++) {
      const m = queue[i]!;
      if (++folders > maxFolders) return void (scan.cutOff ??= `more than ${maxFolders} folders`);
      const entries = readdir(m);
      if (entries.some((e) => (e.name === 'HEAD' || e.name === 'config') && e.isFile())) {
        addRepo(m, null);
        continue;
      }
      for (const e of entries) if (e.isDirectory()) queue.push(join(m, e.name));
    }
  };

  for (const root of roots) {
    const queue: { dir: string; depth: number }[] = [{ dir: realOr(root), depth: 0 }];
    for (let i = 0; i < queue.length; i++) {
      const { dir, depth } = queue[i]!;
      if (++folders > maxFolders) {
        scan.cutOff ??= `more than ${maxFolders} folders`;
        break;
      }
      if (folders % FOLDERS_PER_STEP === 0) yield;
      const { entries, problem } = listings.list(dir);
      if (problem) scan.cutOff ??= problem;
      if (isBareRepo(entries)) {
        addRepo(dir, null);
        continue;
      }
      for (const e of entries) {
        const p = join(dir, e.name);
        if (e.name === '.git') {
          if (e.kind === 'folder') addRepo(p, dir);
          else if (e.kind === 'file') {
            // A `.git` file (a worktree's or submodule's) says where its git folder is.
            watch(p, true);
            const target = /^gitdir:\s*(.+?)\s*$/m.exec(readText(p))?.[1];
            if (target) addRepo(resolve(dir, target), dir);
          } else if (e.kind === 'link') {
            watch(p, true);
            addRepo(p, dir);
          }
        } else if (e.kind === 'socket') scan.sockets.push(p);
        else if (e.kind === 'folder') {
          if (depth + 1 > maxDepth) scan.cutOff ??= `folders deeper than ${maxDepth} levels`;
          else queue.push({ dir: p, depth: depth + 1 });
        }
      }
    }
  }
  scan.control = [...new Set(scan.control)];
  return scan;
}

/**
 * What a command did to git's control files, comparing the scans before and after it: each line
 * is said to the model and the person, and each one taints the run.
 */
export function gitControlChanges(before: GitControlScan, after: GitControlScan): string[] {
  const lines: string[] = [];
  const beforeRepos = new Set(before.repos);
  for (const repo of after.repos) {
    if (!beforeRepos.has(repo)) lines.push(`this command created a git repository at ${workTreeOf(repo)}; git run there obeys its configuration`);
  }
  const created = after.repos.filter((r) => !beforeRepos.has(r));
  for (const [p, print] of after.fingerprint) {
    if (print === 'repo' || created.some((r) => within(p, r))) continue;
    const was = before.fingerprint.get(p) ?? 'missing';
    // A removed file plants nothing; a created or changed one may.
    if (was === print || print === 'missing') continue;
    lines.push(`this command ${was === 'missing' ? 'created' : 'changed'} ${p}, which decides what git runs; git run there obeys it`);
  }
  if (after.cutOff) lines.push(`the workspace could not be checked completely for git repositories (${after.cutOff}): what this command did to git configuration beyond that is unknown`);
  return [...new Set(lines)];
}

function workTreeOf(gitDir: string): string {
  return gitDir.endsWith('/.git') ? dirname(gitDir) : gitDir;
}

function isBareRepo(entries: readonly FolderEntry[]): boolean {
  const has = (name: string, kinds: string[]) => entries.some((e) => e.name === name && kinds.includes(e.kind));
  // git takes a HEAD that is a link as well (an old form it still reads).
  return has('HEAD', ['file', 'link']) && has('objects', ['folder']) && has('refs', ['folder']);
}

function stamp(p: string): string {
  try {
    const s = lstatSync(p);
    return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch {
    return 'missing';
  }
}

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function readdir(p: string): Dirent[] {
  try {
    return readdirSync(p, { withFileTypes: true });
  } catch {
    return [];
  }
}

function subdirs(p: string): string[] {
  return readdir(p)
    .filter((e) => e.isDirectory())
    .map((e) => join(p, e.name));
}

/** At most 64 KiB of a small control file (a hostile `commondir` could be huge, or a FIFO). */
function readText(p: string): string {
  let fd: number | undefined;
  try {
    if (!lstatSync(p).isFile()) return '';
    fd = openSync(p, 'r');
    const buf = Buffer.alloc(65_536);
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
