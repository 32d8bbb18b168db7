import * as buffer from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, writeSync, type Stats } from 'node:fs';

/**
 * JSON Lines, read one way for the log, usage records and session transcripts: one JSON value per
 * line; blank lines are skipped, and so is a line that does not parse (a torn last line after a
 * crash) or that `accept` turns down (returns undefined for).
 */
export type Accept<T> = (value: unknown) => T | undefined;

const asIs = <T>(value: unknown) => value as T;

export function parseJsonLines<T>(text: string, accept: Accept<T> = asIs): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const kept = accept(value);
    if (kept !== undefined) out.push(kept);
  }
  return out;
}

const isAscii = (buffer as { isAscii?: (b: Buffer) => boolean }).isAscii;

/**
 * A whole text file as `readFileSync(file, 'utf8')` returns it, cheaper for a large file that is
 * plain ASCII (most transcripts): those bytes mean the same characters in Latin-1, whose decoding
 * costs next to nothing. Anything else is decoded as UTF-8, as before.
 */
export function readTextFile(file: string): string {
  return decodeText(readFileSync(file));
}

/** UTF-8 bytes as text; plain ASCII (most transcripts) decoded the cheap way, as Latin-1. */
export function decodeText(bytes: Buffer): string {
  return isAscii?.(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * Appends one line (`line` has no newline of its own) with a single write, O_APPEND, so
 * concurrent writers' lines stay whole. A file whose last line was torn (a crash mid-write left
 * no newline) gets one first: the torn line stays unreadable and is skipped, the new line is not
 * glued onto it and lost with it.
 *
 * A file appended to lately stays open for a moment (issue 27: a turn writes two transcript lines
 * and a usage record per step, and opening and closing the file each time was most of a line's
 * cost). Each append still asks the name which file it names (one stat, as an open would): a file
 * deleted, replaced or renamed away since gets its lines no more; the name is opened again, so the
 * line lands where the name points now, as when every append opened it.
 */
export function appendLine(file: string, line: string): void {
  let kept = keptOpen.get(file);
  let st: Stats | undefined;
  if (kept) {
    st = statSync(file, { throwIfNoEntry: false });
    if (!st || st.ino !== kept.ino || st.dev !== kept.dev) {
      forget(file, kept);
      kept = undefined;
    }
  }
  if (!kept) {
    const fd = openSync(file, 'a+');
    try {
      st = fstatSync(fd);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    kept = { fd, dev: st.dev, ino: st.ino, size: -1, used: 0 };
    keep(file, kept);
  }
  const size = st!.size;
  try {
    let torn = false;
    // The file as this process left it (same size: nobody wrote since) ends with the newline
    // written last, so its last byte need not be read. Anything else, a line another writer added
    // included, is checked.
    if (size > 0 && kept.size !== size) {
      const last = Buffer.alloc(1);
      torn = readSync(kept.fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
    }
    const text = `${torn ? '\n' : ''}${line}\n`;
    const written = writeSync(kept.fd, text);
    // A short write left no newline at the end: the next append checks.
    kept.size = written === Buffer.byteLength(text) ? size + written : -1;
    kept.used = Date.now();
  } catch (e) {
    forget(file, kept);
    throw e;
  }
}

/** A file kept open for appending: which file it is, and the size this process's last append left it at. */
interface KeptFile {
  fd: number;
  dev: number;
  ino: number;
  size: number;
  used: number;
}

/** The files appended to lately, open. */
const keptOpen = new Map<string, KeptFile>();
/** How many are kept open at most, and for how long after their last append. */
const MAX_KEPT_OPEN = 16;
const KEPT_OPEN_MS = 2000;
let sweeping: NodeJS.Timeout | null = null;

function keep(file: string, kept: KeptFile): void {
  keptOpen.set(file, kept);
  if (keptOpen.size > MAX_KEPT_OPEN) {
    const [oldest, entry] = keptOpen.entries().next().value as [string, KeptFile];
    forget(oldest, entry);
  }
  // One timer for them all, which keeps no process alive: one that is done exits.
  sweeping ??= setTimeout(sweep, KEPT_OPEN_MS).unref();
}

function forget(file: string, kept: KeptFile): void {
  if (keptOpen.get(file) === kept) keptOpen.delete(file);
  try {
    closeSync(kept.fd);
  } catch {
    // already closed
  }
}

function sweep(): void {
  sweeping = null;
  const now = Date.now();
  for (const [file, kept] of keptOpen) if (now - kept.used >= KEPT_OPEN_MS) forget(file, kept);
  if (keptOpen.size) sweeping = setTimeout(sweep, KEPT_OPEN_MS).unref();
}

/** The files kept open for appending now (tests). */
export function keptOpenFiles(): string[] {
  return [...keptOpen.keys()];
}

/** Closes every file kept open for appending (a host shutting down). */
export function closeKeptFiles(): void {
  for (const [file, kept] of keptOpen) forget(file, kept);
  if (sweeping) clearTimeout(sweeping);
  sweeping = null;
}

/** Every accepted value of a JSON Lines file; a missing or unreadable file has none. */
export function readJsonLines<T>(file: string, accept: Accept<T> = asIs): T[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return parseJsonLines(text, accept);
}

/**
 * An append-only JSON Lines file read on demand without reading it whole each time: unchanged
 * (same file, size, modification and change times) costs one stat; grown, only the new bytes are
 * read and parsed. A file that was replaced, shrank, or whose first bytes or the bytes before
 * where the last read ended are not what they were, is read again from the start. A line still
 * being written (no newline yet) waits for the next read. For hot paths such as the editor's
 * Slots view, which asks on every refresh, the slot guard, which asks on every clean answer, and
 * a chat's transcript, loaded on every turn.
 *
 * What it cannot see: a file rewritten in place (same inode), no shorter, whose first and last
 * read bytes are unchanged but whose lines between them differ. Only the person's own tools can
 * do that to the files it is used for (Pepe's home, out of a confined command's reach).
 */
export class JsonLinesFile<T> {
  private values: T[] = [];
  private readonly lines: JsonLinesReader<T>;

  constructor(readonly file: string, accept: Accept<T> = asIs) {
    this.lines = new JsonLinesReader(file, accept);
  }

  /** The accepted values, oldest first (the same array until the file changes: do not modify it). */
  read(): readonly T[] {
    const next = this.lines.next();
    if (!next || next.restarted) this.values = [];
    if (next?.added.length) this.values = [...this.values, ...next.added];
    return this.values;
  }
}

/**
 * What JsonLinesFile reads with, for a caller that folds the values as they come instead of
 * keeping them (a session transcript): each `next()` gives only the values added since the last,
 * and says when the file had to be read again from the start (then `added` is all of it).
 */
export class JsonLinesReader<T> {
  private stamp: Stamp | null = null;
  /** Bytes consumed so far: always just after a newline. */
  private offset = 0;
  /** The file's first bytes and the ones just before `offset`, as the last read saw them. */
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(readonly file: string, private readonly accept: Accept<T> = asIs) {}

  /** The values added since the last call; null when the file cannot be opened (missing, unreadable). */
  next(): { restarted: boolean; added: T[] } | null {
    // Unchanged since the last read, or still missing: one stat by name (opening and closing it
    // cost two more calls, and a failed open throws, which costs more than the stat).
    const s = this.stamp;
    const now = statSync(this.file, { throwIfNoEntry: false });
    if (!now) {
      this.reset();
      return null;
    }
    if (s && sameStamp(s, now)) return { restarted: false, added: [] };
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      this.reset();
      return null;
    }
    try {
      const st = fstatSync(fd);
      const s = this.stamp;
      if (s && sameStamp(s, st)) return { restarted: false, added: [] };
      const restarted = !s || s.dev !== st.dev || s.ino !== st.ino || st.size < this.offset || !this.sameBytes(fd);
      if (restarted) this.reset();
      const fresh = readBytes(fd, this.offset, st.size);
      const end = fresh.lastIndexOf(0x0a) + 1; // only whole lines
      let added: T[] = [];
      if (end > 0) {
        added = parseJsonLines(decodeText(fresh.subarray(0, end)), this.accept);
        if (this.offset === 0) this.head = Buffer.from(fresh.subarray(0, Math.min(end, CHECKED_BYTES)));
        this.tail = Buffer.concat([this.tail, fresh.subarray(Math.max(0, end - CHECKED_BYTES), end)]).subarray(-CHECKED_BYTES);
        this.offset += end;
      }
      this.stamp = { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
      return { restarted, added };
    } catch {
      this.reset();
      return null;
    } finally {
      closeSync(fd);
    }
  }

  private reset(): void {
    this.stamp = null;
    this.offset = 0;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
  }

  /** True when the file's first bytes and those before `offset` are still what the last read saw. */
  private sameBytes(fd: number): boolean {
    if (this.offset === 0) return true;
    return readBytes(fd, 0, this.head.length).equals(this.head) && readBytes(fd, this.offset - this.tail.length, this.offset).equals(this.tail);
  }
}

/** How many bytes at the start, and before where the last read ended, are compared. */
const CHECKED_BYTES = 64;

/** What tells a file apart from the one read last (without reading it). */
type Stamp = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

function sameStamp(s: Stamp, st: Stamp): boolean {
  // The change time too: a rewrite can put the modification time back, never the change time.
  return s.dev === st.dev && s.ino === st.ino && s.size === st.size && s.mtimeMs === st.mtimeMs && s.ctimeMs === st.ctimeMs;
}

/** The bytes of `fd` from `from` to `to` (fewer if the file is shorter). */
function readBytes(fd: number, from: number, to: number): Buffer {
  const buf = Buffer.alloc(Math.max(0, to - from));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}
