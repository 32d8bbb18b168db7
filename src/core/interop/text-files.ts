import { constants, lstatSync, statSync } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';

/**
 * Reading the text files people bring from other tools (issue 24): instruction files, skills and
 * prompt files. They come from the workspace, which may be an attacker's, so every read here is
 * judged on the real path: a link that leads outside its root (an AGENTS.md pointing at
 * ~/.ssh/id_rsa) is not read, nor is anything that is not a regular file (a FIFO would hang the
 * turn), and only the first bytes of a large file are read.
 */

/**
 * `realpath` remembered per root for one holder (a turn's instruction files: the same root for
 * every file it reads); a root that could not be followed is tried again next time.
 */
export function rootRealPaths(): (root: string) => Promise<string> {
  const memo = new Map<string, Promise<string>>();
  return (root) => {
    let found = memo.get(root);
    if (!found) {
      found = realpath(root);
      memo.set(root, found);
      found.catch(() => memo.delete(root));
    }
    return found;
  };
}

const within = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** Bytes read at most from one file: its cap in characters, times 4 (UTF-8), plus room to say it was cut. */
const bytesFor = (maxChars: number) => maxChars * 4 + 4;

export interface TextFile {
  /** The path as found (inside the root; links not followed). */
  path: string;
  text: string;
  /** True when the file was longer than the cap (the text is cut to the cap). */
  cut: boolean;
}

/**
 * The text of `path`, at most `maxChars` characters, or null when it does not exist, is not a
 * regular file, or really lies outside `root` (both judged on real paths). Never throws for a
 * file that cannot be read: it is simply not there.
 */
export async function readTextFile(path: string, root: string, maxChars: number, rootReal: (root: string) => Promise<string> = realpath): Promise<TextFile | null> {
  if (!present(path)) return null;
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([realpath(path), rootReal(root)]);
  } catch {
    return null;
  }
  if (!within(realRoot, real)) return null;
  let handle;
  try {
    // O_NONBLOCK: a FIFO swapped in after the check is not waited on; fstat below refuses it.
    handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    const want = Math.min(info.size, bytesFor(maxChars));
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await handle.read(buf, got, want - got, got);
      if (!bytesRead) break;
      got += bytesRead;
    }
    const whole = buf.subarray(0, got).toString('utf8').replace(/^\uFEFF/, '');
    const chars = Array.from(whole);
    if (chars.length <= maxChars && got >= info.size) return { path, text: whole, cut: false };
    return { path, text: chars.slice(0, maxChars).join(''), cut: true };
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Whether `path` is a folder whose real location is inside `root`. */
export async function isFolderWithin(path: string, root: string): Promise<boolean> {
  if (!present(path)) return false;
  try {
    const [real, realRoot] = await Promise.all([realpath(path), realpath(root)]);
    return within(realRoot, real) && (await stat(real)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * False when nothing is at `path`, true otherwise (and when in doubt). Most of the places a turn
 * looks in hold nothing (CLAUDE.md, .github/skills, …): asked so, a missing one costs neither a
 * wait on the thread pool nor an error object (each about 0.05 ms here; a turn looks in dozens of
 * places), and only what is there is followed and read asynchronously (issue 27).
 */
function present(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/**
 * `read` of every item, given back in order, with at most `width` reads under way: a turn's start
 * no longer waits on the file system once per file it looks for (issue 27), and a folder of
 * thousands of entries still opens no thousands of files at once.
 */
export async function* readAhead<T, R>(items: readonly T[], read: (item: T) => Promise<R>, width = 8): AsyncGenerator<[T, R]> {
  const started: Promise<R>[] = [];
  const start = (i: number) => {
    if (i >= items.length) return;
    const reading = read(items[i]!);
    reading.catch(() => undefined); // a later read's failure surfaces when its turn comes
    started.push(reading);
  };
  for (let i = 0; i < width; i++) start(i);
  for (let i = 0; i < items.length; i++) {
    const result = await started[i]!;
    start(i + width);
    yield [items[i]!, result];
  }
}

/** The names in a folder, sorted (code-point order, so the same on every platform); [] when there is none. */
export async function sortedEntries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return [];
  }
}

/**
 * The folder instruction files are looked for from: the nearest folder at or above `workspace`
 * holding `.git` (the repository's root), else the workspace itself.
 */
export async function projectRoot(workspace: string): Promise<string> {
  const start = resolve(workspace);
  const folders = [start];
  for (let dir = start; dirname(dir) !== dir; ) folders.push((dir = dirname(dir)));
  // Asked synchronously, nearest first: one stat each, mostly of nothing, which asked through the
  // thread pool cost a wait and an error object apiece (issue 27).
  return folders.find((dir) => isThere(join(dir, '.git'))) ?? start;
}

/** Whether `path` exists, links followed (a link to nothing is nothing). */
function isThere(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** `path` relative to `root` with forward slashes (what people and the config name files by). */
export function relativeName(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

export type FrontMatter = { data: Record<string, unknown>; body: string; error: string | null };

/**
 * Splits YAML front matter (`---` … `---` at the very top) from the body. A file without it is all
 * body. Front matter that is not a YAML mapping is an error the caller reports (with the line).
 */
export function splitFrontMatter(text: string): FrontMatter {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) {
    if (/^---[ \t]*\r?\n/.test(text)) return { data: {}, body: text, error: 'line 1: the front matter opened with --- is never closed' };
    return { data: {}, body: text, error: null };
  }
  const body = text.slice(m[0].length);
  try {
    const data: unknown = parseYaml(m[1]!);
    if (data === null || data === undefined) return { data: {}, body, error: null };
    if (typeof data !== 'object' || Array.isArray(data)) return { data: {}, body, error: 'line 2: the front matter is not a YAML mapping (name: value lines)' };
    return { data: data as Record<string, unknown>, body, error: null };
  } catch (e) {
    const line = (e as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    return { data: {}, body, error: `line ${line ? line + 1 : 2}: the front matter is not valid YAML (${(e as Error).message.split('\n')[0]})` };
  }
}
