import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** The path as written, made absolute against the workspace (lexically: links are not followed). */
export function resolveInWorkspace(workspace: string, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(workspace, path);
}

/** Lexical containment: `absolute` is `root` or below it. Compare real paths with real paths. */
export function insideWorkspace(workspace: string, absolute: string): boolean {
  const rel = relative(workspace, absolute);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The kernel gives up after 40 links in one lookup; so do we. */
const MAX_LINKS = 40;

/** Raised for a path whose links loop or go too deep. */
export class LinkLoopError extends Error {
  constructor(readonly path: string) {
    super(`too many symbolic links while resolving ${path}`);
    this.name = 'LinkLoopError';
  }
}

/**
 * The real path of `absolute`, every symbolic link followed, also when the file does not exist
 * yet: then the real path of its nearest existing ancestor plus the rest, and a dangling link is
 * followed to where it points (a write through it would create its target). Pure lookups: it
 * never opens the file, so a FIFO or a device is safe to resolve.
 */
export async function realPathOf(absolute: string): Promise<string> {
  return follow(resolve(absolute), { links: 0 });
}

async function follow(path: string, budget: { links: number }): Promise<string> {
  try {
    return await realpath(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new LinkLoopError(path);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const info = await lstat(path).catch(() => null);
  if (info?.isSymbolicLink()) {
    // A dangling link: the parent's real path, then where the link points from there.
    if (++budget.links > MAX_LINKS) throw new LinkLoopError(path);
    const target = await readlink(path);
    const realParent = await follow(parent, budget);
    return follow(resolve(realParent, target), budget);
  }
  return join(await follow(parent, budget), basename(path));
}

/**
 * The real paths of a turn's roots (its workspace, $PEPE_HOME), each followed once for the turn
 * instead of once per file-tool call (issue 27). The file itself is still followed on every call;
 * a root that could not be followed is tried again next time.
 */
export class RootRealPaths {
  private readonly memo = new Map<string, Promise<string>>();

  real(absolute: string): Promise<string> {
    const key = resolve(absolute);
    let found = this.memo.get(key);
    if (!found) {
      found = realPathOf(key);
      this.memo.set(key, found);
      found.catch(() => this.memo.delete(key));
    }
    return found;
  }
}
