import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * `bytes` random bytes, as hex: the ids of sessions, turns, approvals and tasks, and the nonce that
 * marks outside content. node:crypto draws them from the kernel's random source too, but loading it
 * costs a short `pepe` command a few ms (it brings the streams with it): on Linux and macOS they
 * are read from /dev/urandom, a block at a time; elsewhere, or when the device cannot be read,
 * from node:crypto.
 */
export function randomHex(bytes: number): string {
  return take(bytes).toString('hex');
}

const POOL_BYTES = 256;
let pool: Buffer | undefined;
let used = POOL_BYTES;
let deviceWorks = process.platform === 'linux' || process.platform === 'darwin';

function take(bytes: number): Buffer {
  if (!deviceWorks || bytes > POOL_BYTES) return randomBytes(bytes);
  if (used + bytes > POOL_BYTES) {
    // Memory of its own: a small Buffer.allocUnsafe comes from a slab Node shares with every other
    // small buffer, whose backing memory (.buffer) would hold the ids and marks still to come.
    const fresh = Buffer.allocUnsafeSlow(POOL_BYTES);
    if (!fill(fresh)) {
      deviceWorks = false;
      return randomBytes(bytes);
    }
    pool = fresh;
    used = 0;
  }
  // A copy: the pool's bytes are handed out once, and a caller may keep what it was given.
  const out = Buffer.from(pool!.subarray(used, used + bytes));
  pool!.fill(0, used, used + bytes);
  used += bytes;
  return out;
}

function fill(buf: Buffer): boolean {
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n <= 0) return false;
      got += n;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
