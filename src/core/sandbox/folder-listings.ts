import { lstatSync, readdirSync, statfsSync, type Stats } from 'node:fs';

/**
 * A folder's entries, remembered between the git control scans (git-control.ts) of one process,
 * so a scan of a large workspace reads each folder again only when it changed (issue 27: the scan
 * before and after every command read every folder of the workspace, about 50 ms for 3,000
 * folders, each time).
 *
 * A remembered listing is used only while the folder's change time (ctime), inode and device are
 * what they were when it was read. Adding, removing or renaming an entry changes the folder's
 * ctime, and nothing a command can do sets a ctime back (setting the times, `touch -d`, sets the
 * ctime to now), so a folder whose ctime is unchanged holds the same names of the same kinds.
 * Two cases would break that, and neither is remembered:
 * - a folder changed within the same tick of the kernel's clock as it was read: a listing whose
 *   ctime is less than RECENT_MS old when read is read again next time;
 * - file systems whose folders' ctime is not kept so (FAT's, network and FUSE file systems, and
 *   any the list below does not name): their folders are read every time.
 * Only the entries the scan looks at are kept (a workspace's files are most of its entries): its
 * folders and sockets, and any entry named `.git` or `HEAD`, each with its kind.
 */
export type EntryKind = 'folder' | 'file' | 'link' | 'socket' | 'other';
export interface FolderEntry {
  name: string;
  kind: EntryKind;
}

/** A listing read this recently (by the ctime it had) may have changed within the same clock tick. */
export const RECENT_MS = 1000;

/**
 * Linux file systems (statfs magic numbers) whose folders' ctime changes with every change of their
 * entries, at a fine grain: ext2/3/4, XFS, Btrfs, tmpfs, ZFS, F2FS.
 */
const KEEPS_CTIME = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x2fc12fc1, 0xf2f52010]);

interface Remembered {
  dev: number;
  ino: number;
  ctimeMs: number;
  entries: readonly FolderEntry[];
}

/** Names kept whatever their kind (a repository's `.git` file or link, a bare repository's HEAD). */
const KEPT_NAMES = new Set(['.git', 'HEAD']);

/** At most this many listings are kept; past it, all are forgotten (the next scan reads everything). */
const MAX_REMEMBERED = 100_000;

export class FolderListings {
  private readonly remembered = new Map<string, Remembered>();
  /** Per device: whether its file system keeps folders' ctime (statfs asked once per device). */
  private readonly devices = new Map<number, boolean>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The entries the scan looks at in the folder at `dir` (not followed if it is a link: a link or
   * anything else that is not a folder has none), read again unless the listing remembered is
   * provably current.
   */
  list(dir: string): readonly FolderEntry[] {
    let st: Stats;
    try {
      st = lstatSync(dir);
    } catch {
      this.remembered.delete(dir);
      return [];
    }
    if (!st.isDirectory()) {
      this.remembered.delete(dir);
      return [];
    }
    const known = this.remembered.get(dir);
    if (known && known.dev === st.dev && known.ino === st.ino && known.ctimeMs === st.ctimeMs) return known.entries;
    // Read after the lstat: a change between the two leaves a listing newer than the ctime it is
    // remembered with, which the next lstat sees as changed (read again): never the other way.
    const entries = read(dir);
    if (this.rememberable(dir, st)) {
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
      this.remembered.set(dir, { dev: st.dev, ino: st.ino, ctimeMs: st.ctimeMs, entries });
    } else this.remembered.delete(dir);
    return entries;
  }

  /** How many listings are remembered (for tests). */
  get size(): number {
    return this.remembered.size;
  }

  private rememberable(dir: string, st: Stats): boolean {
    if (this.now() - st.ctimeMs < RECENT_MS) return false;
    let keeps = this.devices.get(st.dev);
    if (keeps === undefined) {
      keeps = keepsCtime(dir);
      this.devices.set(st.dev, keeps);
    }
    return keeps;
  }
}

function keepsCtime(dir: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return KEEPS_CTIME.has(statfsSync(dir).type);
  } catch {
    return false;
  }
}

function read(dir: string): FolderEntry[] {
  try {
    const kept: FolderEntry[] = [];
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const kind: EntryKind = e.isDirectory() ? 'folder' : e.isFile() ? 'file' : e.isSymbolicLink() ? 'link' : e.isSocket() ? 'socket' : 'other';
      if (kind === 'folder' || kind === 'socket' || KEPT_NAMES.has(e.name)) kept.push({ name: e.name, kind });
    }
    return kept;
  } catch {
    return [];
  }
}
