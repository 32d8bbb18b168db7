import * as buffer from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';

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
  const bytes = readFileSync(file);
  return isAscii?.(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * Appends one line (`line` has no newline of its own) with a single write, O_APPEND, so
 * concurrent writers' lines stay whole. A file whose last line was torn (a crash mid-write left
 * no newline) gets one first: the torn line stays unreadable and is skipped, the new line is not
 * glued onto it and lost with it.
 */
export function appendLine(file: string, line: string): void {
  const fd = openSync(file, 'a+');
  try {
    const st = fstatSync(fd);
    const size = st.size;
    let torn = false;
    // The file as this process left it (same file, same size: nobody wrote since) ends with the
    // newline written last, so its last byte need not be read (issue 27: a transcript gets a line
    // per message). Anything else, a line another writer added included, is checked.
    const ours = lastWrites.get(file);
    if (size > 0 && !(ours && ours.dev === st.dev && ours.ino === st.ino && ours.size === size)) {
      const last = Buffer.alloc(1);
      torn = readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
    }
    const text = `${torn ? '\n' : ''}${line}\n`;
    const written = writeSync(fd, text);
    lastWrites.delete(file);
    // A short write left no newline at the end: the next append checks.
    if (written === Buffer.byteLength(text)) {
      lastWrites.set(file, { dev: st.dev, ino: st.ino, size: size + written });
      if (lastWrites.size > MAX_LAST_WRITES) lastWrites.delete(lastWrites.keys().next().value as string);
    }
  } finally {
    closeSync(fd);
  }
}

/** Where this process's last append to a file left it, for the files appended to lately. */
const lastWrites = new Map<string, { dev: number; ino: number; size: number }>();
const MAX_LAST_WRITES = 64;

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
 * (same file, size and modification time) costs one fstat; grown, only the new bytes are read
 * and parsed. A file that was replaced, shrank, or no longer ends a line where the last read did
 * is read again from the start. A line still being written (no newline yet) waits for the next
 * read. For hot paths such as the editor's Slots view, which asks on every refresh, and the slot
 * guard, which asks on every clean answer.
 */
export class JsonLinesFile<T> {
  private values: T[] = [];
  private stamp: { dev: number; ino: number; size: number; mtimeMs: number } | null = null;
  /** Bytes consumed so far: always just after a newline. */
  private offset = 0;

  constructor(readonly file: string, private readonly accept: Accept<T> = asIs) {}

  /** The accepted values, oldest first (the same array until the file changes: do not modify it). */
  read(): readonly T[] {
    // Unchanged since the last read: one stat by name (opening and closing it cost two more calls).
    const s = this.stamp;
    if (s) {
      const now = statSync(this.file, { throwIfNoEntry: false });
      if (now && s.dev === now.dev && s.ino === now.ino && s.size === now.size && s.mtimeMs === now.mtimeMs) return this.values;
    }
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      this.reset();
      return this.values;
    }
    try {
      const st = fstatSync(fd);
      const s = this.stamp;
      if (s && s.dev === st.dev && s.ino === st.ino && s.size === st.size && s.mtimeMs === st.mtimeMs) return this.values;
      if (!s || s.dev !== st.dev || s.ino !== st.ino || st.size < this.offset || !this.endsLineAt(fd, this.offset)) this.reset();
      const fresh = this.readFrom(fd, this.offset, st.size);
      const end = fresh.lastIndexOf(0x0a) + 1; // only whole lines
      if (end > 0) {
        const added = parseJsonLines(fresh.subarray(0, end).toString('utf8'), this.accept);
        this.values = added.length ? [...this.values, ...added] : this.values;
        this.offset += end;
      }
      this.stamp = { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
      return this.values;
    } catch {
      this.reset();
      return this.values;
    } finally {
      closeSync(fd);
    }
  }

  private reset(): void {
    this.values = [];
    this.stamp = null;
    this.offset = 0;
  }

  /** True when the byte before `offset` is still the newline the last read ended on. */
  private endsLineAt(fd: number, offset: number): boolean {
    if (offset === 0) return true;
    const b = Buffer.alloc(1);
    return readSync(fd, b, 0, 1, offset - 1) === 1 && b[0] === 0x0a;
  }

  private readFrom(fd: number, from: number, size: number): Buffer {
    const buf = Buffer.alloc(Math.max(0, size - from));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  }
}
