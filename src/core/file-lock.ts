import { mkdir, readFile, rename, rm, rmdir, stat, utimes, writeFile } from 'node:fs/promises';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomHex } from './random-id.js';

/**
 * A lock between processes on one file (config.json, an approval, the trust store, a workspace's
 * checkpoints), held as a folder next to it.
 *
 * - Taking it: a folder holding an `owner` record is made under a unique name, then renamed to the
 *   lock's name. The rename fails while any lock folder is there (it is never empty), so only one
 *   process takes it and the record is there from the first instant.
 * - Holding it: the holder touches the folder every `update` ms.
 * - A stale lock (its holder's process is gone, or it was not touched for `stale` ms) is taken
 *   away by one process at a time: under a second lock (`NAME.gc`) the lock is looked at again and
 *   renamed out of the way only if it is still the one found stale. Removing a lock found stale
 *   without that second look lets two waiters each remove one and both think they hold it (the
 *   library this replaces did so, and a write to config.json was lost).
 * - Releasing it removes it only while it is still this holder's.
 */
export interface FileLockOptions {
  /** A lock not touched for this long is stale (its holder is taken to be gone). */
  stale: number;
  /** How often the holder touches it; defaults to half of `stale`, at most 5 s. */
  update?: number;
  /** How long to keep trying while another holds it; 0 fails at once. */
  retries: number | { retries: number; factor?: number; minTimeout?: number; maxTimeout?: number; randomize?: boolean };
}

export class FileLockBusyError extends Error {
  readonly code = 'ELOCKED';
  constructor(readonly lockPath: string) {
    super(`${lockPath} is held by another process`);
  }
}

export interface HeldFileLock {
  /** False once the lock was found taken away (the holder stalled past `stale`). */
  readonly held: boolean;
  /** Looks now: true while the lock is still this holder's (call it just before committing). */
  verify(): Promise<boolean>;
  release(): Promise<void>;
}

interface Owner {
  id: string;
  pid: number;
  host: string;
  pidns: string;
}

let ownPidNamespace: string | undefined;
function pidNamespace(): string {
  if (ownPidNamespace === undefined) {
    try {
      ownPidNamespace = readlinkSync('/proc/self/ns/pid');
    } catch {
      ownPidNamespace = '';
    }
  }
  return ownPidNamespace;
}

function parseOwner(text: string): Owner | undefined {
  try {
    const v = JSON.parse(text) as Partial<Owner>;
    if (typeof v.id === 'string' && typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.pidns === 'string') return v as Owner;
  } catch {
    // unreadable: judged by its age alone
  }
  return undefined;
}

/** True only when the holder is certainly gone: same host and pid namespace, and no such process. */
function ownerIsGone(owner: Owner | undefined): boolean {
  if (!owner || !owner.pidns || owner.host !== hostname() || owner.pidns !== pidNamespace()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function readOwner(lockPath: string): Promise<Owner | undefined> {
  return parseOwner(await readFile(join(lockPath, 'owner'), 'utf8').catch(() => ''));
}

interface Seen {
  ino: number;
  owner?: Owner;
}

/** The lock as it is now, if it is stale; undefined when it is absent or alive. */
async function staleNow(lockPath: string, staleMs: number): Promise<Seen | undefined> {
  const s = await stat(lockPath).catch(() => undefined);
  if (!s) return undefined;
  const owner = await readOwner(lockPath);
  if (s.mtimeMs < Date.now() - staleMs || ownerIsGone(owner)) return { ino: s.ino, owner };
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The holder's folder, made under a unique name with its record in it, ready to be renamed. */
async function makeOwnedFolder(lockPath: string, owner: Owner): Promise<string> {
  const temp = `${lockPath}.new-${owner.id}`;
  await mkdir(temp);
  await writeFile(join(temp, 'owner'), JSON.stringify(owner));
  return temp;
}

/**
 * One try: true when taken. The holder's folder is made only when the lock looks free, and removed
 * at once when another was quicker, so a waiter stopped by a signal leaves nothing behind.
 */
async function tryTake(lockPath: string, owner: Owner): Promise<boolean> {
  // Looked at first also because a rename replaces an empty folder, which is what a lock of an
  // earlier Pepe (of the library it used) is: such a lock appearing between the look and the
  // rename is the one case not excluded.
  if (await stat(lockPath).catch(() => undefined)) return false;
  const temp = await makeOwnedFolder(lockPath, owner);
  try {
    await rename(temp, lockPath);
    return true;
  } catch (e) {
    await rm(temp, { recursive: true, force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    // Windows says EPERM or EACCES for a rename onto an existing folder; anything else is real.
    if ((code === 'EPERM' || code === 'EACCES') && (await stat(lockPath).catch(() => undefined))) return false;
    throw e;
  }
}

/** Moves `path` away to a unique name and removes it. */
async function discard(path: string): Promise<void> {
  const grave = `${path}.old-${randomHex(8)}`;
  try {
    await rename(path, grave);
  } catch {
    return;
  }
  await rm(grave, { recursive: true, force: true });
}

/**
 * Removes the lock if it is stale, one remover at a time. The remover's own lock (`.gc`) is a plain
 * folder held for a few system calls; one left by a process killed in that instant is removed
 * after `stale` like any other.
 */
async function removeIfStale(lockPath: string, staleMs: number): Promise<void> {
  const gc = `${lockPath}.gc`;
  try {
    await mkdir(gc);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const s = await stat(gc).catch(() => undefined);
    if (s && s.mtimeMs < Date.now() - Math.max(staleMs, 1000)) await discard(gc);
    return;
  }
  try {
    const seen = await staleNow(lockPath, staleMs);
    if (!seen) return;
    const grave = `${lockPath}.old-${randomHex(8)}`;
    try {
      await rename(lockPath, grave);
    } catch {
      return;
    }
    // Only a holder's own release changes the lock while the remover's lock is held. A holder
    // that was stalled, not gone, may have released it and another taken it just now: give
    // that one back.
    const took = await stat(grave).catch(() => undefined);
    const owner = await readOwner(grave);
    if (!took || took.ino !== seen.ino || owner?.id !== seen.owner?.id) {
      await rename(grave, lockPath).catch(() => undefined);
      return;
    }
    await rm(grave, { recursive: true, force: true });
  } finally {
    await rmdir(gc).catch(() => undefined);
  }
}

function retryPlan(r: FileLockOptions['retries']) {
  const o = typeof r === 'number' ? { retries: r } : r;
  return { retries: o.retries, factor: o.factor ?? 2, min: o.minTimeout ?? 10, max: o.maxTimeout ?? 1000, randomize: o.randomize ?? true };
}

/** Takes the lock at `lockPath` (a folder), waiting as `retries` says. */
export async function acquireFileLock(lockPath: string, options: FileLockOptions): Promise<HeldFileLock> {
  const owner: Owner = { id: randomHex(12), pid: process.pid, host: hostname(), pidns: pidNamespace() };
  const plan = retryPlan(options.retries);
  for (let attempt = 0; ; attempt++) {
    if (await tryTake(lockPath, owner)) break;
    // Most waits end with the holder's release; the remover's lock is taken only for a lock that
    // looks stale from outside.
    if (await staleNow(lockPath, options.stale)) {
      await removeIfStale(lockPath, options.stale);
      if (await tryTake(lockPath, owner)) break;
    }
    if (attempt >= plan.retries) throw new FileLockBusyError(lockPath);
    let wait = Math.min(plan.max, plan.min * plan.factor ** attempt);
    if (plan.randomize) wait *= 1 + Math.random();
    await sleep(Math.min(wait, plan.max));
  }
  return holding(lockPath, owner, options);
}

function holding(lockPath: string, owner: Owner, options: FileLockOptions): HeldFileLock {
  let held = true;
  let released = false;
  const every = options.update ?? Math.min(5000, options.stale / 2);
  const stillOurs = async () => (await readOwner(lockPath))?.id === owner.id;
  const timer = setInterval(() => {
    void (async () => {
      if (!(await stillOurs())) {
        held = false;
        clearInterval(timer);
        return;
      }
      const now = new Date();
      await utimes(lockPath, now, now).catch(() => undefined);
    })();
  }, every);
  timer.unref();
  return {
    get held() {
      return held && !released;
    },
    async verify() {
      if (released || !held) return false;
      held = await stillOurs();
      return held;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      if (!(await stillOurs())) return;
      // Moved aside first and checked there, so a lock another process took meanwhile (this one
      // having stalled past `stale`) is put back rather than removed.
      const grave = `${lockPath}.old-${randomHex(8)}`;
      try {
        await rename(lockPath, grave);
      } catch {
        return;
      }
      if ((await readOwner(grave))?.id !== owner.id) {
        await rename(grave, lockPath).catch(() => undefined);
        return;
      }
      await rm(grave, { recursive: true, force: true });
    },
  };
}

/** Runs `work` holding the lock at `lockPath`; released whatever `work` does. */
export async function withFileLock<T>(lockPath: string, options: FileLockOptions, work: (lock: HeldFileLock) => Promise<T>): Promise<T> {
  const lock = await acquireFileLock(lockPath, options);
  try {
    return await work(lock);
  } finally {
    await lock.release().catch(() => undefined);
  }
}
