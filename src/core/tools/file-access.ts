import { constants, type Stats } from 'node:fs';
import { mkdir, open, readlink, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { insideWorkspace, LinkLoopError, realPathOf, resolveInWorkspace } from './paths.js';
import { ToolRefusal, type PathFact, type ToolContext } from './tool.js';

/**
 * Where a file tool really goes (issue 12): every path is decided on its real location, every link
 * followed, before the barrier sees the call; and checked again when the call runs, so a link
 * swapped between approval and execution cannot redirect a read or a write. Kernel interfaces
 * (/proc, /sys, /dev), FIFOs, sockets and devices are never opened.
 */

/** Never read or written, whatever a link says (on Linux /proc/self/environ holds Pepe's keys). */
const KERNEL_ROOTS = ['/proc', '/sys', '/dev'];

const underRoot = (root: string, path: string) => path === root || path.startsWith(root + sep);

function kernelRoot(path: string): string | undefined {
  return process.platform === 'win32' ? undefined : KERNEL_ROOTS.find((r) => underRoot(r, path));
}

/** Device numbers of the mounted kernel file systems: a bind mount of /proc elsewhere is still /proc. */
let kernelDevices: Promise<Set<number>> | undefined;
function kernelDevs(): Promise<Set<number>> {
  kernelDevices ??= Promise.all(['/proc', '/sys'].map((p) => stat(p).then((s) => s.dev, () => null))).then(
    (devs) => new Set(devs.filter((d): d is number => d !== null)),
  );
  return kernelDevices;
}

function kindOf(s: Stats): string | null {
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  return null;
}

async function refuseSpecial(requested: string, lexical: string, real: string, info: Stats | null): Promise<void> {
  const root = kernelRoot(lexical) ?? kernelRoot(real);
  if (root) throw new ToolRefusal(`${requested} is under ${root}, a kernel interface: file tools never read or write there`);
  if (!info) return;
  const kind = kindOf(info);
  if (kind) throw new ToolRefusal(`${requested} is ${kind}${real !== lexical ? ` (${real})` : ''}: file tools only read and write regular files and list folders`);
  if ((await kernelDevs()).has(info.dev)) throw new ToolRefusal(`${requested} is on a kernel file system (${real}): file tools never read or write there`);
}

/** What `access` to `requested` touches, judged on the real path. Throws ToolRefusal for what must never run. */
export async function pathFact(requested: string, access: 'read' | 'write', ctx: Pick<ToolContext, 'workspace' | 'paths' | 'rootPaths'>): Promise<PathFact> {
  const workspace = resolve(ctx.workspace);
  const lexical = resolveInWorkspace(workspace, requested);
  let real: string;
  let realWorkspace: string;
  let realHome: string;
  const rootReal = (root: string) => (ctx.rootPaths ? ctx.rootPaths.real(root) : realPathOf(root));
  try {
    [real, realWorkspace, realHome] = await Promise.all([realPathOf(lexical), rootReal(workspace), rootReal(resolve(ctx.paths.home))]);
  } catch (e) {
    if (e instanceof LinkLoopError) throw new ToolRefusal(`${requested}: its symbolic links loop or go too deep`);
    throw new ToolRefusal(`${requested}: cannot tell where it leads (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const info = await stat(real).catch(() => null);
  await refuseSpecial(requested, lexical, real, info);
  if (access === 'write' && info?.isFile() && info.nlink > 1) {
    throw new ToolRefusal(`${requested} has ${info.nlink} hard links: writing it would change the same file under its other names too`);
  }
  // Lexical and real compared from the same (real) workspace, so a workspace that is itself
  // reached through a link does not mark every path as "via a link".
  const lexicalFromReal = insideWorkspace(workspace, lexical) ? join(realWorkspace, relative(workspace, lexical)) : lexical;
  return {
    requested,
    real,
    access,
    inside: insideWorkspace(realWorkspace, real),
    inPepeHome: insideWorkspace(realHome, real),
    viaLink: lexicalFromReal !== real,
  };
}

/**
 * At execution: the path resolved again. When the barrier judged facts for this call
 * (`ctx.facts`), the real path must be the one it judged; without facts, only what needs no
 * approval goes: a path inside the workspace, not in $PEPE_HOME, reached without a link out.
 */
export async function recheck(requested: string, access: 'read' | 'write', ctx: ToolContext): Promise<PathFact> {
  const now = await pathFact(requested, access, ctx);
  const judged = ctx.facts?.paths?.find((p) => p.requested === requested && p.access === access);
  if (judged) {
    if (judged.real !== now.real) {
      throw new ToolRefusal(`${requested} now leads to ${now.real}, not to ${judged.real} as when the call was checked: not ${access === 'read' ? 'read' : 'written'}`);
    }
    return now;
  }
  if (!now.inside || now.inPepeHome) {
    const where = now.inPepeHome ? "Pepe's own folder" : 'outside the workspace';
    throw new ToolRefusal(`${requested} leads to ${now.real}${now.viaLink ? ' (through a link)' : ''}, ${where}, and the call was not checked for that: not ${access === 'read' ? 'read' : 'written'}`);
  }
  return now;
}

/**
 * For a read about to be opened with `openChecked`: the fact the barrier judged for this very
 * call, as it is (following the path again would prove nothing more: `openChecked` opens the
 * judged real path, and refuses a descriptor that is not that file, a link or folder swapped in on
 * the way included); without one, `recheck`. Saves following every link twice per read (issue 27).
 * Writes always `recheck` (they also judge hard links and create folders).
 */
export async function forRead(requested: string, ctx: ToolContext): Promise<PathFact> {
  const judged = ctx.facts?.paths?.find((p) => p.requested === requested && p.access === 'read');
  return judged ?? recheck(requested, 'read', ctx);
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Opens the real path without following a link in its last part and without blocking (a FIFO
 * swapped in opens at once and is then refused), then proves the descriptor is the file that was
 * checked: Linux names it in /proc/self/fd; elsewhere the path must still resolve to itself and
 * name the same inode.
 */
export async function openChecked(fact: PathFact, flags: number, mode?: number): Promise<{ handle: FileHandle; info: Stats }> {
  let handle: FileHandle;
  try {
    handle = await open(fact.real, flags | NOFOLLOW | NONBLOCK, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new ToolRefusal(`${fact.requested}: a symbolic link appeared at ${fact.real} after it was checked`);
    if (code === 'ENXIO') throw new ToolRefusal(`${fact.requested} became a FIFO or a socket after it was checked`);
    throw e;
  }
  try {
    const info = await handle.stat();
    const kind = kindOf(info);
    if (kind) throw new ToolRefusal(`${fact.requested} is ${kind}: file tools only read and write regular files and list folders`);
    if ((await kernelDevs()).has(info.dev)) throw new ToolRefusal(`${fact.requested} is on a kernel file system: file tools never read or write there`);
    const where = await openedPath(handle.fd);
    if (where !== null) {
      if (where !== fact.real) throw new ToolRefusal(`${fact.requested} was redirected to ${where} after it was checked (${fact.real})`);
    } else {
      const [again, byPath] = await Promise.all([realPathOf(fact.real), stat(fact.real).catch(() => null)]);
      if (again !== fact.real || !byPath || byPath.ino !== info.ino || byPath.dev !== info.dev) {
        throw new ToolRefusal(`${fact.requested} changed while it was being opened (${fact.real})`);
      }
    }
    return { handle, info };
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
}

/** The kernel's name for an open descriptor (Linux), or null where there is no such thing. */
async function openedPath(fd: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  return readlink(`/proc/self/fd/${fd}`).catch(() => null);
}

/** Creates the missing folders of a write's real path, then checks none of them became a link. */
export async function makeParents(fact: PathFact): Promise<void> {
  const parent = dirname(fact.real);
  await mkdir(parent, { recursive: true });
  if ((await realPathOf(parent)) !== parent) throw new ToolRefusal(`${fact.requested}: a folder on the way to ${fact.real} became a link after it was checked`);
}

export const READ_FLAGS = constants.O_RDONLY;
export const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT;
