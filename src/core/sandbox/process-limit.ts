import { accessSync, close, constants, mkdirSync, openSync, readdir, readFileSync, rmdir, rmdirSync, write, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How the process limit of a confined command is enforced on Linux (spec 3.5):
 * - `rlimit`: RLIMIT_NPROC set inside the sandbox. Inside its own user namespace it counts only the
 *   sandbox's processes, but the kernel never applies it to the real root user;
 * - `cgroup`: a `pids` control group per command (root can create one; so can a user whose
 *   cgroup is delegated). The command is placed in it before it starts;
 * - `none`: neither holds (root without a writable `pids` cgroup).
 */
export type ProcessLimitMethod = 'rlimit' | 'cgroup' | 'none';

let cachedBase: string | null | undefined;
/** The line of /proc/self/cgroup that names the base as this process's own group (null: the base's path may not be it). */
let ownLine: string | null = null;

/** A writable `pids` cgroup folder this process may create children in, or null. */
export function pidsCgroupBase(): string | null {
  if (cachedBase !== undefined) return cachedBase;
  const found = findPidsCgroup();
  cachedBase = found?.dir ?? null;
  ownLine = found?.ownLine ?? null;
  return cachedBase;
}

/**
 * Begins the kernel's wait for a cgroup move now, off the main thread, for a shell about to be
 * started that must join its command's group. Every move into a cgroup first waits for an RCU
 * grace period (5–25 ms here), but a move made within about a grace period of the last one does
 * not wait. So this moves this process into the group it is already in (the pids base: the kernel
 * changes nothing), on a thread of Node's pool; the shell, spawned a few milliseconds later, then
 * joins its own group at once, or waits only for what is left of that same grace period. The move
 * holds the kernel's cgroup lock while it waits: make the group first (mkdir would wait too).
 * Nothing when the base is not certainly this process's own group, now (then no move is made).
 */
export function startGroupMoveWait(): void {
  const base = pidsCgroupBase();
  if (!base || !ownLine) return;
  let fd: number;
  try {
    // Moved by someone else since the base was found: no move (it would move this process back).
    if (!readFileSync('/proc/self/cgroup', 'utf8').split('\n').includes(ownLine)) return;
    fd = openSync(join(base, 'cgroup.procs'), 'w');
  } catch {
    return;
  }
  // The write is what waits: queued to the pool at once (a callback-chained writeFile would queue it
  // only once the main thread is free again, after the shell is started).
  write(fd, String(process.pid), () => close(fd, () => undefined));
}

/** What holds the limit for commands this process starts (the built-in sandbox uses the cgroup only as root). */
export function processLimitMethod(): ProcessLimitMethod {
  if (process.platform !== 'linux') return 'none';
  if (process.getuid?.() !== 0) return 'rlimit';
  return pidsCgroupBase() ? 'cgroup' : 'none';
}

/** One command's `pids` cgroup: created with its limit, removed (when empty) after the command. */
export class PidsCgroup {
  private constructor(readonly dir: string) {}

  static create(max: number): PidsCgroup | null {
    const base = pidsCgroupBase();
    if (!base) return null;
    const dir = join(base, `pepe-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pids.max'), String(max));
      return new PidsCgroup(dir);
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        // never created
      }
      return null;
    }
  }

  /**
   * Removes, once per process, the groups left by a Pepe process that is gone (killed before it
   * could remove them, or ended with a shell still waiting in one). Called when a command has
   * been started, so this housekeeping runs while the command does, not before it; read and
   * removed on Node's pool, so the main thread never waits for the cgroup lock meanwhile.
   */
  static sweepLeftovers(): void {
    const base = pidsCgroupBase();
    if (swept || !base) return;
    swept = true;
    readdir(base, (error, names) => {
      for (const name of error ? [] : names) {
        const m = /^pepe-(\d+)-/.exec(name);
        if (!m || Number(m[1]) === process.pid) continue;
        try {
          process.kill(Number(m[1]), 0);
          continue; // its owner still runs
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EPERM') continue;
        }
        rmdir(join(base, name), () => undefined);
      }
    });
  }

  /** The file a process writes its own pid into to join. */
  get procsFile(): string {
    return join(this.dir, 'cgroup.procs');
  }

  /**
   * Removes the group: at once when it is already empty, else retried in the background (the
   * kernel frees the last processes a moment after the exit), and a last time when Pepe exits.
   */
  dispose(): void {
    if (tryRemove(this.dir)) return;
    pending.add(this.dir);
    let tries = 0;
    const retry = () => {
      if (tryRemove(this.dir) || ++tries >= 40) pending.delete(this.dir);
      else setTimeout(retry, 25).unref();
    };
    setTimeout(retry, 10).unref();
  }
}

let swept = false;
const pending = new Set<string>();
process.once('exit', () => {
  for (const dir of pending) tryRemove(dir);
});

function tryRemove(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}



function findPidsCgroup(): { dir: string; ownLine: string | null } | null {
  if (process.platform !== 'linux') return null;
  let mountinfo: string;
  let own: string;
  try {
    mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
    own = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return null;
  }
  const candidates: { dir: string; ownLine: string | null }[] = [];
  for (const line of mountinfo.split('\n')) {
    const [pre, post] = line.split(' - ');
    if (!pre || !post) continue;
    const [, , , mountRoot, mountPoint] = pre.split(' ');
    const [fsType, , superOpts = ''] = post.split(' ');
    if (!mountPoint) continue;
    // The folder is this process's own group only when the mount shows its hierarchy from the root.
    const ownIf = (l: string) => (mountRoot === '/' ? l : null);
    if (fsType === 'cgroup' && superOpts.split(',').includes('pids')) {
      const l = own.split('\n').find((l) => l.split(':')[1]?.split(',').includes('pids'));
      const rel = l?.split(':')[2];
      if (l !== undefined && rel !== undefined) candidates.push({ dir: join(mountPoint, rel), ownLine: ownIf(l) });
    } else if (fsType === 'cgroup2') {
      const l = own.split('\n').find((l) => l.startsWith('0::'));
      if (l === undefined) continue;
      const dir = join(mountPoint, l.slice(3));
      // cgroup v2: a child gets the pids controller only if this group hands it down.
      try {
        if (!readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('pids')) continue;
      } catch {
        continue;
      }
      candidates.push({ dir, ownLine: ownIf(l) });
    }
  }
  for (const candidate of candidates) {
    const { dir } = candidate;
    try {
      accessSync(dir, constants.W_OK);
      // Prove it: make and remove a child with a limit.
      const probe = join(dir, `pepe-probe-${process.pid}`);
      mkdirSync(probe);
      try {
        writeFileSync(join(probe, 'pids.max'), '8');
      } finally {
        rmdirSync(probe);
      }
      return candidate;
    } catch {
      // not ours to use
    }
  }
  return null;
}
