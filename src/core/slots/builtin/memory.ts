import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryHit } from '../contracts.js';

export const MEMORY_FILES = ['MEMORY.md', 'USER.md', 'people.md'] as const;

interface IndexedFile {
  stamp: string;
  indexedAt: string;
  text: string;
  /** Lower-cased text, same length as `text` (else null and entries are lower-cased one by one). */
  lower: string | null;
  /** Entry boundaries: entry i is text.slice(starts[i], ends[i]). */
  starts: number[];
  ends: number[];
}

export interface MemoryFileStatus {
  file: string;
  bytes: number;
  modifiedAt: string;
  /** Entries (paragraphs, list items, headings); null when the file could not be read. */
  entries: number | null;
  /** When this process indexed the file as it is now. */
  indexedAt: string | null;
}

export interface MemoryIndexStatus {
  files: MemoryFileStatus[];
  entries: number;
}

const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s/;
const HEADING = /^\s{0,3}#{1,6}\s/;

/** Splits markdown into entries: paragraphs, list items (with their continuation lines), headings. */
export function entryBounds(text: string): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let open = -1;
  let lastEnd = 0;
  let pos = 0;
  const close = () => {
    if (open >= 0) {
      starts.push(open);
      ends.push(lastEnd);
      open = -1;
    }
  };
  while (pos <= text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl === -1) nl = text.length;
    const line = text.slice(pos, nl);
    const blank = line.trim() === '';
    if (blank) close();
    else if (HEADING.test(line)) {
      close();
      starts.push(pos);
      ends.push(nl);
    } else {
      if (LIST_ITEM.test(line)) close();
      if (open < 0) open = pos;
      lastEnd = nl;
    }
    pos = nl + 1;
  }
  close();
  return { starts, ends };
}

/**
 * The built-in memory occupant (spec 3.5): case-insensitive substring search over the agent's
 * MEMORY.md, USER.md and people.md; a hit is the paragraph or list item that contains the match.
 * Files are indexed once and re-read only when their size or mtime changes.
 */
export class BuiltinMemory {
  private cache = new Map<string, IndexedFile>();

  constructor(private readonly agentsDir: string) {}

  async search(agentName: string, query: string, opts: { limit?: number } = {}): Promise<MemoryHit[]> {
    const needle = query.trim().toLowerCase();
    const limit = opts.limit ?? 20;
    const hits: MemoryHit[] = [];
    if (!needle || limit <= 0) return hits;
    for (const fileName of MEMORY_FILES) {
      const indexed = await this.load(join(this.agentsDir, agentName, fileName));
      if (!indexed) continue;
      for (const entry of matches(indexed, needle)) {
        hits.push({ file: fileName, entry, score: null, source: 'builtin' });
        if (hits.length >= limit) return hits;
      }
    }
    return hits;
  }

  /**
   * The agent's index: per file its size, entries and when it was indexed. Like a search, this
   * indexes a file only when it is new or changed since (so the index is always current when read).
   */
  async status(agentName: string): Promise<MemoryIndexStatus> {
    const files: MemoryFileStatus[] = [];
    for (const file of MEMORY_FILES) {
      const path = join(this.agentsDir, agentName, file);
      let s;
      try {
        s = await stat(path);
      } catch {
        continue;
      }
      const indexed = await this.load(path);
      files.push({ file, bytes: s.size, modifiedAt: s.mtime.toISOString(), entries: indexed ? indexed.starts.length : null, indexedAt: indexed?.indexedAt ?? null });
    }
    return { files, entries: files.reduce((n, f) => n + (f.entries ?? 0), 0) };
  }

  /** Drops the agent's index and builds it again from the files now. */
  async reindex(agentName: string): Promise<MemoryIndexStatus> {
    for (const file of MEMORY_FILES) {
      const path = join(this.agentsDir, agentName, file);
      this.cache.delete(path);
      await this.load(path);
    }
    return this.status(agentName);
  }

  private async load(path: string): Promise<IndexedFile | null> {
    let stamp: string;
    try {
      const s = await stat(path);
      stamp = `${s.mtimeMs}:${s.size}`;
    } catch {
      this.cache.delete(path);
      return null;
    }
    const cached = this.cache.get(path);
    if (cached && cached.stamp === stamp) return cached;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return null;
    }
    const lower = text.toLowerCase();
    const indexed: IndexedFile = { stamp, text, lower: lower.length === text.length ? lower : null, indexedAt: new Date().toISOString(), ...entryBounds(text) };
    this.cache.set(path, indexed);
    return indexed;
  }
}

function* matches(file: IndexedFile, needle: string): Generator<string> {
  const { text, lower, starts, ends } = file;
  if (lower === null) {
    for (let i = 0; i < starts.length; i++) {
      const entry = text.slice(starts[i], ends[i]);
      if (entry.toLowerCase().includes(needle)) yield entry.trim();
    }
    return;
  }
  let from = 0;
  for (;;) {
    const at = lower.indexOf(needle, from);
    if (at < 0) return;
    const i = entryAt(ends, at);
    if (i < starts.length && starts[i]! <= at && at + needle.length <= ends[i]!) {
      yield text.slice(starts[i], ends[i]).trim();
      from = ends[i]!;
    } else {
      from = at + 1;
    }
  }
}

/** Index of the first entry whose end is past `pos` (binary search). */
function entryAt(ends: number[], pos: number): number {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid]! <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
