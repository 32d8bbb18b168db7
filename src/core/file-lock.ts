import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { lazySchema } from './lazy-schema.js';
import { randomHex } from './random-id.js';
import * as z from './zod.js';

/**
 * A lock between processes on one file (config.json, an approval, the trust store, a workspace's
 * checkpoints), held as a folder next to it.
 *
 * - Taking it: a folder holding an `owner` record is made under a unique name, then renamed to the
 *   lock's name. The rename fails while a lock folder is there (it is never empty), so only one
 *   process takes it, and the record is there from the first instant.
 * - Holding it: the holder touches the folder every `update` ms.
 * - Removing it, whether the holder releases it or a waiter takes away a stale one (its holder
 *   gone from this machine, or not touched for `stale`), happens only under a second lock
 *   (`NAME.gc`), and only after the record was read again under it. The lock then changes only by
 *   being made where there is none, so what was judged is what is removed. Removing a lock found
 *   stale without that let two waiters each remove one and both think they held it (the library
 *   this replaced did so, and a write to config.json was lost).
 * - The lock's own steps are a few local system calls each, made synchronously: under load, each
 *   asynchronous one is a wait to be scheduled again, inside the lock (100 writers at once took
 *   40 % longer so). Only the waits between tries are asynchronous.
 * - What a process killed mid-way leaves (`NAME.new-PID-…`, `NAME.old-PID-…`) is cleared away on a
 *   later release once it is older than `stale`.
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

/** The holder's record in a lock folder: read from disk, so anything; checked by this schema. */
const Owner = lazySchema(() => z.object({ id: z.string(), pid: z.number(), host: z.string(), boot: z.string(), pidns: z.string() }));
type Owner = z.infer<typeof Owner>;

let machine: { host: string; boot: string; pidns: string } | undefined;
/** What tells this machine (and pid namespace) from another sharing the folder. */
function thisMachine() {
  if (!machine) {
    const read = (f: () => string) => {
      try {
        return f().trim();
      } catch {
        return '';
      }
    };
    machine = {
      host: hostname(),
      boot: read(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
      pidns: read(() => readlinkSync('/proc/self/ns/pid')),
    };
  }
  return machine;
}

function newOwner(): Owner {
  return { id: randomHex(12), pid: process.pid, ...thisMachine() };
}

/** Unreadable or not a record: undefined, and the lock is judged by its age alone. */
function parseOwner(text: string): Owner | undefined {
  try {
    const r = Owner.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/** True only when the holder is certainly gone: this boot of this machine, this pid namespace, no such process. */
function ownerIsGone(owner: Owner | undefined): boolean {
  const here = thisMachine();
  if (!owner || !here.boot || !here.pidns || owner.host !== here.host || owner.boot !== here.boot || owner.pidns !== here.pidns) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * The record in a lock folder. Anyone who can write next to the lock could plant something else
 * there: a link is not followed, a FIFO or device not waited on, and at most 1 KB is read.
 */
function readOwner(folder: string): Owner | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(join(folder, 'owner'), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(1024);
    const bytesRead = readSync(fd, buffer, 0, buffer.length, 0);
    return parseOwner(buffer.subarray(0, bytesRead).toString('utf8'));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const lstatOrNone = (path: string): Stats | undefined => lstatSync(path, { throwIfNoEntry: false });

interface Seen {
  ino: number;
  owner?: Owner;
}

/** The one rule: not touched for `stale`, or its holder certainly gone. */
const isStale = (s: Stats, owner: Owner | undefined, staleMs: number) => s.mtimeMs < Date.now() - staleMs || ownerIsGone(owner);

/** The folder as it is now, if it is stale; undefined when it is absent or alive. */
function staleNow(path: string, staleMs: number): Seen | undefined {
  const s = lstatOrNone(path);
  if (!s) return undefined;
  const owner = readOwner(path);
  return isStale(s, owner, staleMs) ? { ino: s.ino, owner } : undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const aside = (path: string, kind: 'new' | 'old') => `${path}.${kind}-${process.pid}-${randomHex(6)}`;

/**
 * One try at the folder `path` for `owner`: true when taken, else the lock found there (or false
 * when another was quicker between the look and the rename). The folder is made only when there is
 * none (looked at first also because a rename replaces an empty folder, which is what a lock of an
 * earlier Pepe is), and removed at once when another was quicker.
 */
function tryTake(path: string, owner: Owner): true | false | Stats {
  const there = lstatOrNone(path);
  if (there) return there;
  const temp = aside(path, 'new');
  try {
    mkdirSync(temp);
    writeFileSync(join(temp, 'owner'), JSON.stringify(owner));
    renameSync(temp, path);
    return true;
  } catch (e) {
    rmSync(temp, { recursive: true, force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') return false;
    // Windows says EPERM or EACCES for a rename onto an existing folder; anything else is real.
    if ((code === 'EPERM' || code === 'EACCES') && lstatOrNone(path)) return false;
    throw e;
  }
}

/** Moves `path` aside and removes it if it is still what `expect` says; else puts it back. */
function removeIf(path: string, expect: (moved: Seen) => boolean): boolean {
  const grave = aside(path, 'old');
  try {
    renameSync(path, grave);
  } catch {
    return false;
  }
  const s = lstatOrNone(grave);
  if (!s || !expect({ ino: s.ino, owner: readOwner(grave) })) {
    try {
      renameSync(grave, path);
    } catch {
      // another lock is there now: this one's holder finds out by verify()
    }
    return false;
  }
  removeFolder(grave);
  return true;
}

/** A lock folder holds its record only: two calls; anything else planted in it, the long way. */
function removeFolder(path: string): void {
  try {
    unlinkSync(join(path, 'owner'));
    rmdirSync(path);
  } catch {
    rmSync(path, { recursive: true, force: true });
  }
}

const sameAs = (seen: Seen) => (moved: Seen) => moved.ino === seen.ino && moved.owner?.id === seen.owner?.id;

/**
 * The remover's lock: held for a few system calls. One whose holder is gone is taken away at once
 * (on this machine) or after `stale`; `wait` waits for a live one, up to about `stale`.
 */
async function takeRemoverLock(lockPath: string, staleMs: number, wait: boolean): Promise<Owner | undefined> {
  const gc = `${lockPath}.gc`;
  const owner = newOwner();
  const giveUp = Date.now() + Math.max(staleMs, 1000) + 1000;
  for (;;) {
    if (tryTake(gc, owner) === true) return owner;
    const seen = staleNow(gc, Math.max(staleMs, 1000));
    if (seen) {
      removeIf(gc, sameAs(seen));
      continue;
    }
    if (!wait || Date.now() > giveUp) return undefined;
    await sleep(2 + Math.random() * 8);
  }
}

function releaseRemoverLock(lockPath: string, owner: Owner): void {
  removeIf(`${lockPath}.gc`, (moved) => moved.owner?.id === owner.id);
}

/** Clears away what processes killed mid-way left next to the lock, once older than `stale`. */
function sweep(lockPath: string, staleMs: number): void {
  const dir = dirname(lockPath);
  const prefix = `${basename(lockPath)}.`;
  const leftover = /^(?:gc\.)?(?:new|old)-\d+-[0-9a-f]+$/;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !leftover.test(name.slice(prefix.length))) continue;
    const path = join(dir, name);
    const s = lstatOrNone(path);
    if (s && s.mtimeMs < Date.now() - staleMs) rmSync(path, { recursive: true, force: true });
  }
}

/** Takes away the lock if it is stale, under the remover's lock; nothing if another is removing. */
async function removeIfStale(lockPath: string, staleMs: number): Promise<void> {
  const remover = await takeRemoverLock(lockPath, staleMs, false);
  if (!remover) return;
  try {
    const seen = staleNow(lockPath, staleMs);
    if (seen) removeIf(lockPath, sameAs(seen));
  } finally {
    releaseRemoverLock(lockPath, remover);
  }
}

function retryPlan(r: FileLockOptions['retries']) {
  const o = typeof r === 'number' ? { retries: r } : r;
  return { retries: o.retries, factor: o.factor ?? 2, min: o.minTimeout ?? 10, max: o.maxTimeout ?? 1000, randomize: o.randomize ?? true };
}

/** Takes the lock at `lockPath` (a folder), waiting as `retries` says. */
export async function acquireFileLock(lockPath: string, options: FileLockOptions): Promise<HeldFileLock> {
  const owner = newOwner();
  const plan = retryPlan(options.retries);
  let takenAt = Date.now();
  // The holder's record, read once per lock seen (by inode), not on every try: a waiter among
  // many tries often.
  let seenIno = -1;
  let holder: Owner | undefined;
  for (let attempt = 0; ; attempt++) {
    takenAt = Date.now();
    const seen = tryTake(lockPath, owner);
    if (seen === true) break;
    if (seen && seen.ino !== seenIno) {
      seenIno = seen.ino;
      holder = readOwner(lockPath);
    }
    // Most waits end with the holder's release; the remover's lock is taken only for a lock that
    // looks stale from outside (and is looked at again under it).
    if (seen && isStale(seen, holder, options.stale)) {
      await removeIfStale(lockPath, options.stale);
      takenAt = Date.now();
      if (tryTake(lockPath, owner) === true) break;
    }
    if (attempt >= plan.retries) throw new FileLockBusyError(lockPath);
    let wait = Math.min(plan.max, plan.min * plan.factor ** attempt);
    if (plan.randomize) wait *= 1 + Math.random();
    await sleep(Math.min(wait, plan.max));
  }
  return holding(lockPath, owner, options, takenAt);
}

function holding(lockPath: string, owner: Owner, options: FileLockOptions, takenAt: number): HeldFileLock {
  let held = true;
  let released = false;
  const every = options.update ?? Math.min(5000, options.stale / 2);
  const stillOurs = () => readOwner(lockPath)?.id === owner.id;
  const timer = setInterval(() => {
    if (!stillOurs()) {
      held = false;
      clearInterval(timer);
      return;
    }
    try {
      const now = new Date();
      utimesSync(lockPath, now, now);
    } catch {
      // gone meanwhile: the next look says so
    }
  }, every);
  timer.unref();
  return {
    get held() {
      return held && !released;
    },
    async verify() {
      if (released || !held) return false;
      held = stillOurs();
      return held;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      // Taken less than `stale` / 2 ago (its mtime, never older than `takenAt`, has been fresh all
      // along): no remover can ever have found it stale, so it is this holder's until it is moved,
      // and it is moved at once. Else under the remover's lock, so a remover that found it stale
      // (this holder having stalled) and a new holder never see it change under them.
      const fresh = held && Date.now() - takenAt < options.stale / 2;
      const remover = fresh ? undefined : await takeRemoverLock(lockPath, options.stale, true);
      try {
        if (fresh) {
          const grave = aside(lockPath, 'old');
          try {
            renameSync(lockPath, grave);
            removeFolder(grave);
          } catch {
            // already gone
          }
        } else {
          removeIf(lockPath, (moved) => moved.owner?.id === owner.id);
        }
        sweep(lockPath, options.stale);
      } finally {
        if (remover) releaseRemoverLock(lockPath, remover);
      }
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
