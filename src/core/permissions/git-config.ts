import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { indexGitlinks } from './git-index.js';

/**
 * Whether a repository's own configuration makes git run programs by itself. The allow-list
 * treats `git status`, `git log`… as harmless, but a `.git/config` that arrived with a project
 * can name a program git starts on its own: `core.fsmonitor` (status), a `filter` or `diff`
 * driver, `gpg.*.program` (log with signatures), a pager, or an include of another file. In
 * such a repository those subcommands are asked, and so in one whose submodules or embedded
 * repositories (which git enters) name one (issue 21). Read bounded: at most MAX_BYTES per file and
 * MAX_FILES files; anything larger, unreadable in part, or that the reader cannot make sense of
 * counts as unsafe (fail closed).
 */

const MAX_BYTES = 64 * 1024;
const MAX_FILES = 32;
const MAX_UP = 64;

/** Keys (section.name, lower case; `*` for any subsection) that make git start a program. */
const PROGRAM_KEYS: RegExp[] = [
  /^core\.fsmonitor$/,
  /^core\.pager$/,
  /^pager\./,
  /^gpg\.(.*\.)?program$/,
  /^filter\./,
  /^diff\.(.*\.)?(textconv|command)$/,
  /^diff\.external$/,
  /^include\./,
  /^includeif\./,
];

/**
 * Null when the repository around `cwd` (if any), and every repository git would enter from it,
 * names no program git would run; else why. Entered: the submodules and embedded repositories
 * the index records (gitlinks) whose folder holds a `.git`, at any depth; their git folders may
 * be anywhere (`.git/modules/a/b`, a `.git` file naming another place, a `commondir`).
 */
export function repositoryConfigRisk(cwd: string): string | null {
  if (!isAbsolute(cwd)) return 'the folder the command runs in is not known, so its repository configuration cannot be checked';
  const found = findGitDir(cwd);
  if (found === null) return null;
  if ('unsafe' in found) return found.unsafe;
  return repositoryRisk(found.gitDir, found.worktree, { left: MAX_REPOSITORIES }, 0);
}

const MAX_REPOSITORIES = 32;
const MAX_DEPTH = 6;

function repositoryRisk(gitDir: string, worktree: string | null, budget: { left: number }, depth: number): string | null {
  if (--budget.left < 0 || depth > MAX_DEPTH) return 'the repository holds more nested repositories than the barrier reads';
  const own = ownConfigRisk(gitDir, worktree);
  if (own) return own;
  if (worktree === null) return null;
  const links = indexGitlinks(join(gitDir, 'index'));
  if (!Array.isArray(links)) return links.unsafe;
  for (const link of links) {
    const folder = resolve(worktree, link);
    const nested = nestedGitDir(folder);
    if (nested === null) continue;
    if ('unsafe' in nested) return nested.unsafe;
    const why = repositoryRisk(nested.gitDir, folder, budget, depth + 1);
    if (why) return `git enters the nested repository at ${link}: ${why}`;
  }
  return null;
}

/** The git folder of a submodule's work tree: its `.git` folder, or the folder its `.git` file names; null when not populated. */
function nestedGitDir(folder: string): { gitDir: string } | { unsafe: string } | null {
  const dotGit = join(folder, '.git');
  let st;
  try {
    st = lstatSync(dotGit);
  } catch {
    return null;
  }
  if (st.isDirectory()) return { gitDir: dotGit };
  if (!st.isFile()) return { unsafe: `${dotGit} is neither a folder nor a file` };
  const text = readCapped(dotGit);
  if (typeof text !== 'string') return { unsafe: `${dotGit} cannot be read in full` };
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!m) return { unsafe: `${dotGit} does not name a git folder` };
  return { gitDir: resolve(folder, m[1]!) };
}

/** The repository's own configuration files and hooks. */
function ownConfigRisk(gitDir: string, worktree: string | null): string | null {
  const files = configFiles(gitDir);
  if (typeof files === 'string') return files;
  const hookDirs = files.filter((f) => f.endsWith('/config')).map((f) => join(dirname(f), 'hooks'));
  for (const file of files) {
    const text = readCapped(file);
    if (text === null) continue;
    if (typeof text !== 'string') return `${file} is ${text.why}`;
    const bad = programKey(text);
    if (bad) return `the repository configuration (${file}) sets ${bad}, which makes git run a program`;
    for (const value of hooksPathValues(text)) {
      const where = hooksFolder(value, worktree);
      if (where === null) return `the repository configuration (${file}) sets core.hooksPath to a folder the barrier cannot locate`;
      hookDirs.push(where);
    }
  }
  return hookRisk(hookDirs);
}

/**
 * Hooks that git's read-only commands run by themselves: `git status` rewrites the index when
 * file times changed, and writing the index runs `post-index-change`; a ref update runs
 * `reference-transaction`. A project that arrives with its `.git` folder can bring them along.
 */
const HOOKS_RUN_BY_READS = ['post-index-change', 'reference-transaction'];

function hookRisk(dirs: string[]): string | null {
  for (const dir of dirs) {
    for (const hook of HOOKS_RUN_BY_READS) {
      const p = join(dir, hook);
      try {
        lstatSync(p);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') continue;
        return `the git hook ${p} cannot be checked`;
      }
      return `the repository has a ${hook} hook (${p}), which git runs by itself`;
    }
  }
  return null;
}

/** Every `core.hooksPath` value in a config file (last one wins for git; all are checked here). */
function hooksPathValues(text: string): string[] {
  const out: string[] = [];
  let section = '';
  for (let raw of text.split(/\r?\n/)) {
    raw = raw.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"(?:[^"\\]|\\.)*")?\s*\](.*)$/.exec(raw);
    if (head) {
      section = raw.includes('"') ? '' : head[1]!.toLowerCase();
      raw = head[2]!.trim();
    }
    const m = /^hookspath\s*=\s*(.*)$/i.exec(raw);
    if (m && section === 'core') out.push(m[1]!);
  }
  return out;
}

/** Where a `core.hooksPath` value points; null when it is written in a way not followed here (quotes, escapes, comments). */
function hooksFolder(value: string, worktree: string | null): string | null {
  const v = value.trim();
  if (v === '' || /["\\#;]/.test(v)) return null;
  if (v === '~' || v.startsWith('~/')) return join(homedir(), v.slice(1));
  if (isAbsolute(v)) return v;
  return worktree === null ? null : resolve(worktree, v);
}

/** The first key that starts a program, or `unreadable` for a line the reader cannot parse; null when clean. */
export function programKey(text: string): string | null {
  let section = '';
  for (let raw of text.split(/\r?\n/)) {
    raw = raw.trim();
    if (raw === '' || raw.startsWith('#') || raw.startsWith(';')) continue;
    if (raw.startsWith('[')) {
      const m = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(raw);
      if (!m) return 'a line git may read differently than Pepe does';
      const [, name, sub, rest] = m;
      section = sub !== undefined ? `${name!.toLowerCase()}.${sub.toLowerCase()}` : name!.toLowerCase();
      raw = rest!.trim();
      if (raw === '' || raw.startsWith('#') || raw.startsWith(';')) continue;
    }
    const k = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$|[#;])/.exec(raw);
    // A continuation line of a value (ends in a backslash above) also lands here: unsafe, which
    // only costs a question.
    if (!k) return 'a line git may read differently than Pepe does';
    if (section === '') return 'a setting outside any section';
    const key = `${section}.${k[1]!.toLowerCase()}`;
    if (PROGRAM_KEYS.some((r) => r.test(key))) return key;
  }
  return null;
}

type Found = { gitDir: string; worktree: string | null } | { unsafe: string } | null;

/**
 * git's own test for a folder that is itself a repository (a bare one): a HEAD file next to
 * `objects` and `refs`. Looser than git's (fail closed): HEAD with either of them counts.
 */
function looksLikeGitDir(dir: string): boolean {
  const is = (name: string, dirWanted: boolean) => {
    try {
      const st = statSync(join(dir, name));
      return dirWanted ? st.isDirectory() : st.isFile();
    } catch {
      return false;
    }
  };
  return is('HEAD', false) && (is('objects', true) || is('refs', true) || is('commondir', false));
}

/**
 * The git folder for `cwd`, found as git finds it: in each folder from `cwd` up, `.git` in it
 * (a folder, or a file naming one), else the folder itself when it looks like a git folder
 * (a bare repository: a downloaded project laid out that way is one too).
 */
function findGitDir(cwd: string): Found {
  let dir = resolve(cwd);
  for (let i = 0; i < MAX_UP; i++) {
    const dotGit = join(dir, '.git');
    let st;
    try {
      st = statSync(dotGit);
    } catch {
      st = null;
    }
    if (st?.isDirectory()) return { gitDir: dotGit, worktree: dir };
    if (st?.isFile()) {
      const text = readCapped(dotGit);
      if (typeof text !== 'string') return { unsafe: `${dotGit} cannot be read in full` };
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (!m) return { unsafe: `${dotGit} does not name a git folder` };
      return { gitDir: resolve(dir, m[1]!), worktree: dir };
    }
    if (st) return { unsafe: `${dotGit} is neither a folder nor a file` };
    // Its `core.worktree` may name a work tree anywhere: relative hook folders are not followed.
    if (looksLikeGitDir(dir)) return { gitDir: dir, worktree: null };
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return { unsafe: 'the folder is nested too deeply to find its repository' };
}

/** The config files git reads for this git folder: its own, the worktree's, the common one, the submodules'. */
function configFiles(gitDir: string): string[] | string {
  const files = [join(gitDir, 'config'), join(gitDir, 'config.worktree')];
  const common = readCapped(join(gitDir, 'commondir'));
  if (typeof common === 'string' && common.trim()) files.push(join(resolve(gitDir, common.trim()), 'config'));
  const modules: string[] = [];
  collectModules(join(gitDir, 'modules'), modules, 0);
  for (const m of modules) files.push(join(m, 'config'), join(m, 'config.worktree'));
  if (files.length > MAX_FILES) return 'the repository has more submodule configurations than the barrier reads';
  return files;
}

function collectModules(dir: string, out: string[], depth: number): void {
  if (depth > 4 || out.length > MAX_FILES) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const p = join(dir, name);
    try {
      if (!lstatSync(p).isDirectory()) continue;
    } catch {
      continue;
    }
    // A submodule's git folder has a config; a nested path (modules/a/b) is a folder of folders.
    try {
      statSync(join(p, 'config'));
      out.push(p);
      collectModules(join(p, 'modules'), out, depth + 1);
    } catch {
      collectModules(p, out, depth + 1);
    }
    if (out.length > MAX_FILES) return;
  }
}

/** The file's text; null when there is none; `{ why }` when it cannot be read safely in full. */
function readCapped(file: string): string | null | { why: string } {
  let fd: number;
  try {
    // Non-blocking: a FIFO put in a config file's place must not hang the barrier on open.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : { why: 'unreadable' };
  }
  try {
    const st = fstatSync(fd);
    // A FIFO or device would block or never end: not a configuration git would use either.
    if (!st.isFile()) return { why: 'not a regular file' };
    if (st.size > MAX_BYTES) return { why: `larger than ${MAX_BYTES / 1024} KB` };
    const buf = Buffer.alloc(st.size);
    const n = readSync(fd, buf, 0, st.size, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return { why: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}
