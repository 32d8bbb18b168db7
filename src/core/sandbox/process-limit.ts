import { accessSync, constants, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
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

/** A writable `pids` cgroup folder this process may create children in, or null. */
export function pidsCgroupBase(): string | null {
  if (cachedBase !== undefined) return cachedBase;
  cachedBase = findPidsCgroup();
  return cachedBase;
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
    sweepStale(base);
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

let swept = false;
/** Groups left by a Pepe process that is gone (it was killed before it could remove them). */
function sweepStale(base: string): void {
  if (swept) return;
  swept = true;
  for (const name of readdirSync(base)) {
    const m = /^pepe-(\d+)-/.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
      continue; // its owner still runs
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EPERM') continue;
    }
    tryRemove(join(base, name));
  }
}

function findPidsCgroup(): string | null {
  if (process.platform !== 'linux') return null;
  let mountinfo: string;
  let own: string;
  try {
    mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
    own = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return null;
  }
  const candidates: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const [pre, post] = line.split(' - ');
    if (!pre || !post) continue;
    const mountPoint = pre.split(' ')[4];
    const [fsType, , superOpts = ''] = post.split(' ');
    if (!mountPoint) continue;
    if (fsType === 'cgroup' && superOpts.split(',').includes('pids')) {
      const rel = own.split('\n').find((l) => l.split(':')[1]?.split(',').includes('pids'))?.split(':')[2];
      if (rel !== undefined) candidates.push(join(mountPoint, rel));
    } else if (fsType === 'cgroup2') {
      const rel = own.split('\n').find((l) => l.startsWith('0::'))?.slice(3);
      if (rel === undefined) continue;
      const dir = join(mountPoint, rel);
      // cgroup v2: a child gets the pids controller only if this group hands it down.
      try {
        if (!readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('pids')) continue;
      } catch {
        continue;
      }
      candidates.push(dir);
    }
  }
  for (const dir of candidates) {
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
      return dir;
    } catch {
      // not ours to use
    }
  }
  return null;
}
