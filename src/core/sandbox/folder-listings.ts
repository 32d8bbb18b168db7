import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, statfsSync, type Dirent, type Stats } from 'node:fs';

/**
 * A folder's entries, remembered between the git control scans (git-control.ts) of one process,
 * so a scan of a large workspace reads each folder again only when it changed (issue 27: the scan
 * before and after every command read every folder of the workspace, about 60 ms for 4,000
 * folders, each time).
 *
 * A remembered listing is used only while the folder's change time (ctime), inode and device are
 * what they were when it was read. Adding, removing or renaming an entry changes the folder's
 * ctime, and nothing a command can do sets a ctime back (setting the times, `touch -d`, sets the
 * ctime to now), so a folder whose ctime is unchanged holds the same names of the same kinds.
 * - The listing is read through the very folder its ctime was taken from (opened, then read as
 *   /proc/self/fd/N): a folder above it renamed or swapped meanwhile cannot get another folder's
 *   entries remembered under its identity.
 * - A folder changed within the same tick of the kernel's clock as it was read could keep its
 *   ctime: a listing whose ctime is less than RECENT_MS old when read is not remembered, nor one
 *   whose ctime is a whole second (a file system keeping times in seconds: ext2/3, or ext4 with
 *   small inodes).
 * - Only file systems whose folders' ctime is kept so are trusted (the list below, asked again
 *   at every scan, since a device number can be reused by another file system); elsewhere, and
 *   off Linux, folders are read every time.
 * - A read that failed is never remembered, and one that failed for a reason other than the
 *   folder being gone or closed to this user is a problem the scan reports (fail closed).
 * Only the entries the scan looks at are kept (a workspace's files are most of its entries): its
 * folders and sockets, and any entry named `.git` or `HEAD`, each with its kind.
 */
export type EntryKind = 'folder' | 'file' | 'link' | 'socket' | 'other';
export interface FolderEntry {
  name: string;
  kind: EntryKind;
}
export interface Listing {
  entries: readonly FolderEntry[];
  /** Why this folder could not be listed whole (the scan is then incomplete), or null. */
  problem: string | null;
}

/** A listing read this recently (by the ctime it had) may have changed within the same clock tick. */
export const RECENT_MS = 1000;

/**
 * Linux file systems (statfs magic numbers) whose folders' ctime changes with every change of their
 * entries, at a fine grain: ext2/3/4, XFS, Btrfs, tmpfs, ZFS, F2FS.
 */
const KEEPS_CTIME = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x2fc12fc1, 0xf2f52010]);

/** Names kept whatever their kind (a repository's `.git` file or link, a bare repository's HEAD). */
const KEPT_NAMES = new Set(['.git', 'HEAD']);

/** Errors after which a folder counts as empty: it is gone, or this user (and so a command) cannot read it. */
const EMPTY_WHEN = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'EPERM']);

/** At most this many listings are kept; past it, all are forgotten (the next scan reads everything). */
const MAX_REMEMBERED = 100_000;

const NONE: Listing = Object.freeze({ entries: Object.freeze([]), problem: null });

interface Remembered {
  dev: number;
  ino: number;
  ctimeMs: number;
  listing: Listing;
}

export class FolderListings {
  private readonly remembered = new Map<string, Remembered>();
  /** Per device, for the scan under way: whether its file system keeps folders' ctime. */
  private devices = new Map<number, boolean>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Called as a scan starts: which file system a device number is, is asked again. */
  beginScan(): void {
    this.devices = new Map();
  }

  /**
   * The entries the scan looks at in the folder at `dir` (not followed if it is a link: a link or
   * anything else that is not a folder has none), read again unless the listing remembered is
   * provably current.
   */
  list(dir: string): Listing {
    let st: Stats;
    try {
      st = lstatSync(dir);
    } catch (e) {
      this.remembered.delete(dir);
      return failed(dir, e);
    }
    if (!st.isDirectory()) {
      this.remembered.delete(dir);
      return NONE;
    }
    if (!this.trusted(dir, st)) {
      this.remembered.delete(dir);
      return readByPath(dir);
    }
    const known = this.remembered.get(dir);
    if (known && known.dev === st.dev && known.ino === st.ino && known.ctimeMs === st.ctimeMs) return known.listing;
    this.remembered.delete(dir);
    const read = readThrough(dir);
    if (!read) return readByPath(dir); // /proc unavailable: read as usual, remember nothing
    if (read.st && read.listing.problem === null && this.rememberable(read.st)) {
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
      this.remembered.set(dir, { dev: read.st.dev, ino: read.st.ino, ctimeMs: read.st.ctimeMs, listing: read.listing });
    }
    return read.listing;
  }

  /** How many listings are remembered (for tests). */
  get size(): number {
    return this.remembered.size;
  }

  private rememberable(st: Stats): boolean {
    return settled(st.ctimeMs, this.now());
  }

  private trusted(dir: string, st: Stats): boolean {
    if (process.platform !== 'linux') return false;
    let keeps = this.devices.get(st.dev);
    if (keeps === undefined) {
      try {
        keeps = KEEPS_CTIME.has(statfsSync(dir).type);
      } catch {
        keeps = false;
      }
      this.devices.set(st.dev, keeps);
    }
    return keeps;
  }
}

/**
 * Whether a listing read at `now` from a folder whose ctime is `ctimeMs` may be remembered: the
 * ctime is old enough that a later change cannot share its clock tick, and is not a whole second
 * (a file system keeping times in seconds gives a change in the same second the same ctime).
 */
export function settled(ctimeMs: number, now: number): boolean {
  return now - ctimeMs >= RECENT_MS && ctimeMs % 1000 !== 0;
}

/**
 * The folder opened (never through a link), its identity taken from the open folder and its
 * entries read through it; null when /proc cannot be used for that.
 */
function readThrough(dir: string): { st?: Stats; listing: Listing } | null {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (e) {
    return { listing: failed(dir, e) };
  }
  try {
    const st = fstatSync(fd);
    let dirents: Dirent[];
    try {
      dirents = readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      return { st, listing: failed(dir, e) };
    }
    return { st, listing: summarize(dir, dirents, `/proc/self/fd/${fd}`) };
  } finally {
    closeSync(fd);
  }
}

function readByPath(dir: string): Listing {
  try {
    return summarize(dir, readdirSync(dir, { withFileTypes: true }), dir);
  } catch (e) {
    return failed(dir, e);
  }
}

function failed(dir: string, e: unknown): Listing {
  const code = (e as NodeJS.ErrnoException).code ?? 'an error';
  return EMPTY_WHEN.has(code) ? NONE : { entries: [], problem: `a folder could not be read (${code}): ${dir}` };
}

function summarize(dir: string, dirents: Dirent[], readAt: string): Listing {
  const entries: FolderEntry[] = [];
  let problem: string | null = null;
  for (const e of dirents) {
    const kind: EntryKind = e.isDirectory() ? 'folder' : e.isFile() ? 'file' : e.isSymbolicLink() ? 'link' : e.isSocket() ? 'socket' : 'other';
    if (kind !== 'folder' && kind !== 'socket' && !KEPT_NAMES.has(e.name)) continue;
    // A name that is not UTF-8 comes back with U+FFFD in it: the path made from it names nothing,
    // so what is below it could not be seen. (A name really holding U+FFFD is checked as bytes.)
    if (e.name.includes('\uFFFD') && !utf8Names(readAt).has(e.name)) problem ??= `a folder name that is not UTF-8 in ${dir}`;
    entries.push({ name: e.name, kind });
  }
  return { entries, problem };
}

/** The names in `dir` that are valid UTF-8, as text. */
function utf8Names(dir: string): Set<string> {
  const out = new Set<string>();
  try {
    for (const raw of readdirSync(dir, { encoding: 'buffer' })) {
      const name = raw.toString('utf8');
      if (Buffer.from(name, 'utf8').equals(raw)) out.add(name);
    }
  } catch {
    // unreadable now: every such name counts as not UTF-8
  }
  return out;
}
