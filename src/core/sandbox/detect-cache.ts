import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir, release } from 'node:os';
import { isAbsolute, join } from 'node:path';
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema.js';

/**
 * The confinement probe's answer kept across processes (a trial bubblewrap run costs two process
 * starts, which every `pepe` command would otherwise pay). An entry holds only while everything
 * that decides the answer is unchanged: the program (path, size, mtime, ctime, inode), the kernel
 * release, the user namespace switches in /proc/sys and the uid; and for a day at most.
 *
 * Why this is safe: a cached "confined" that no longer holds makes commands fail to start (the
 * sandbox runs bubblewrap and reports its error; it never falls back to running unconfined) and
 * the failed start drops the entry; a cached "unconfined" only makes the barrier ask for every
 * command. The file is trusted only when it and its folder belong to this user and nobody else
 * may write them; confined commands and plugins see the user's home read-only anyway.
 */

const MAX_AGE_MS = 24 * 60 * 60 * 1000;
const MAX_BYTES = 8 * 1024;
/** Kernel switches that turn unprivileged user namespaces on or off without a new kernel. */
const USERNS_SWITCHES = ['/proc/sys/kernel/unprivileged_userns_clone', '/proc/sys/user/max_user_namespaces', '/proc/sys/kernel/apparmor_restrict_unprivileged_userns'];

const Entry = lazySchema(() =>
  z.object({
    key: z.string(),
    at: z.number(),
    status: z.union([
      z.object({ confined: z.literal(true), backend: z.enum(['bubblewrap', 'seatbelt']) }),
      z.object({ confined: z.literal(false), reason: z.string().check(z.maxLength(1000)) }),
    ]),
    version: z.optional(z.string().check(z.maxLength(200))),
  }),
);
export type CachedConfinement = z.infer<typeof Entry>;

/** The folder the entry lives in: $XDG_CACHE_HOME/pepe, else ~/.cache/pepe. */
export function confinementCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'pepe');
}

const fileIn = (dir: string) => join(dir, `confinement-${process.getuid?.() ?? 'user'}.json`);

/** What the answer depends on for this backend program; null when the program cannot be read. */
export function confinementKey(program: string): string | null {
  let st;
  try {
    st = statSync(program);
  } catch {
    return null;
  }
  const switches = USERNS_SWITCHES.map((p) => {
    try {
      return readFileSync(p, 'utf8').trim();
    } catch {
      return '-';
    }
  });
  return JSON.stringify([process.platform, release(), process.getuid?.() ?? -1, program, st.size, st.mtimeMs, st.ctimeMs, st.ino, switches]);
}

/** The entry for `key`, when one is there, fresh, well-formed and safely owned. */
export function readCachedConfinement(key: string, dir = confinementCacheDir()): CachedConfinement | null {
  if (!ownedPrivately(dir)) return null;
  let fd: number | undefined;
  try {
    fd = openSync(fileIn(dir), 'r');
    const st = fstatSync(fd);
    if (!st.isFile() || !ownedByMe(st.uid) || (st.mode & 0o022) !== 0 || st.size > MAX_BYTES) return null;
    const buf = Buffer.alloc(st.size);
    const n = readSync(fd, buf, 0, st.size, 0);
    const parsed = Entry.safeParse(JSON.parse(buf.subarray(0, n).toString('utf8')));
    if (!parsed.success) return null;
    const entry = parsed.data;
    const age = Date.now() - entry.at;
    if (entry.key !== key || age < 0 || age > MAX_AGE_MS) return null;
    return entry;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Stores the answer (best effort: a cache that cannot be written only costs the next probe). */
export function writeCachedConfinement(entry: CachedConfinement, dir = confinementCacheDir()): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownedPrivately(dir)) return;
    const file = fileIn(dir);
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
    writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    // read-only home, full disk…: probe again next time
  }
}

/** Drops the entry (after a confined start failed: the next process probes afresh). */
export function forgetCachedConfinement(dir = confinementCacheDir()): void {
  try {
    const file = fileIn(dir);
    // Overwrite rather than unlink: same effect, and no race with a writer's rename.
    if (lstatSync(file).isFile()) writeFileSync(file, '{}', { mode: 0o600 });
  } catch {
    // nothing cached
  }
}

function ownedByMe(uid: number): boolean {
  const me = process.getuid?.();
  return me === undefined || uid === me;
}

function ownedPrivately(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && ownedByMe(st.uid) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}
