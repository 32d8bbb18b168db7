import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * The submodules git would enter from a repository: the gitlink entries (mode 160000) of its
 * index. `git status` and `git diff` look inside each populated one by running git there, which
 * obeys that repository's own configuration; the barrier must read those too (git-config.ts).
 * The index is git's binary file (versions 2, 3 and 4; SHA-1 or SHA-256 names); read bounded, and
 * anything not understood is unsafe (fail closed).
 */

const MAX_INDEX_BYTES = 32 * 1024 * 1024;
const GITLINK = 0o160000;

/** Gitlink paths in the index file; [] when there is none; `{ unsafe }` when it cannot be read as git would. */
export function indexGitlinks(indexFile: string): string[] | { unsafe: string } {
  const buf = readBounded(indexFile);
  if (buf === null) return [];
  if ('unsafe' in buf) return buf;
  for (const hashBytes of [20, 32]) {
    const parsed = parse(buf.data, hashBytes);
    if (parsed) return parsed;
  }
  return { unsafe: `${indexFile} is not an index file the barrier can read` };
}

function parse(buf: Buffer, hashBytes: number): string[] | null {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const links: string[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    const fixed = 40 + hashBytes + 2;
    if (at + fixed > buf.length) return null;
    const mode = buf.readUInt32BE(at + 24);
    const flags = buf.readUInt16BE(at + 40 + hashBytes);
    at += fixed;
    if (flags & 0x4000) {
      if (version < 3) return null;
      at += 2;
    }
    let path: Buffer;
    if (version === 4) {
      const strip = varint(buf, at);
      if (!strip || strip.value > previous.length) return null;
      at = strip.next;
      const end = buf.indexOf(0, at);
      if (end < 0) return null;
      path = Buffer.concat([previous.subarray(0, previous.length - strip.value), buf.subarray(at, end)]);
      at = end + 1;
    } else {
      const end = buf.indexOf(0, at);
      if (end < 0) return null;
      path = buf.subarray(at, end);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      at = start + ((end - start + 8) & ~7);
      if (at > buf.length || buf.subarray(end, at).some((b) => b !== 0)) return null;
    }
    if ((flags & 0xfff) !== 0xfff && (flags & 0xfff) !== path.length) return null;
    previous = path;
    if ((mode & 0o170000) === GITLINK) links.push(path.toString('utf8'));
  }
  // Extensions: a split index ("link") keeps entries in another file: not followed, so unsafe.
  while (at + 8 <= buf.length - hashBytes) {
    const sig = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32BE(at + 4);
    if (sig === 'link') return null;
    at += 8 + size;
  }
  return links;
}

/** git's offset varint (read-cache.c: decode_varint). */
function varint(buf: Buffer, at: number): { value: number; next: number } | null {
  if (at >= buf.length) return null;
  let c = buf[at++]!;
  let value = c & 127;
  while (c & 128) {
    if (at >= buf.length || value > 0xffffff) return null;
    value += 1;
    c = buf[at++]!;
    value = (value << 7) + (c & 127);
  }
  return { value, next: at };
}

function readBounded(file: string): { data: Buffer } | { unsafe: string } | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : { unsafe: `${file} cannot be read` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { unsafe: `${file} is not a regular file` };
    if (st.size > MAX_INDEX_BYTES) return { unsafe: `${file} is larger than the barrier reads` };
    const data = Buffer.alloc(st.size);
    const n = readSync(fd, data, 0, st.size, 0);
    return { data: data.subarray(0, n) };
  } catch {
    return { unsafe: `${file} cannot be read` };
  } finally {
    closeSync(fd);
  }
}
