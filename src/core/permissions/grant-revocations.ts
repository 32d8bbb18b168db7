import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from '../zod.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * Revocations of grants held in memory (session and task grants, the bypass), as an append-only
 * file beside config.json: `pepe grants revoke` in one process writes a line, and every process's
 * barrier reads the file again before its next call (issue 25), taking away what it holds that the
 * line names and that was given before it. One line each, written with one append, so writers in
 * several processes never need a lock. A line that cannot be read is skipped; a file that cannot
 * be read at all takes every grant away (fail closed).
 */

export const Revocation = lazySchema(() =>
  z.strictObject({
    /** When it was written (ms since the epoch): only grants given before it go. */
    at: z.number(),
    /** One grant, by the ID `pepe grants list` shows. */
    id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    /** Every grant of this agent (with `scope`: only those). */
    agent: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    /** A tool (`bash`) or an entry as listed (`bash:network`). */
    scope: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
  }),
);
export type Revocation = z.infer<typeof Revocation>;

/** What a revocation is matched against: one grant held in memory. */
export interface RevocableGrant {
  id: string;
  agent: string;
  tool?: string;
  entry: string;
  at: number;
}

export function revocationMatches(r: Revocation, g: RevocableGrant): boolean {
  if (g.at > r.at) return false;
  if (r.id !== undefined) return r.id === g.id;
  if (r.agent !== undefined && r.agent !== g.agent) return false;
  return r.scope === undefined || scopeMatches(r.scope, g);
}

/** A scope names a tool (every grant of it) or one entry exactly as listed. */
export function scopeMatches(scope: string, g: { tool?: string; entry: string }): boolean {
  return scope === g.entry || (g.tool !== undefined && scope === g.tool);
}

export class RevocationLog {
  private seen: { size: number; mtimeMs: number; ino: number } | null = null;
  private records: Revocation[] = [];
  private unreadable = false;

  constructor(readonly file: string) {}

  append(r: Omit<Revocation, 'at'>, at = Date.now()): Revocation {
    const record = Revocation.parse({ at, ...r });
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    return record;
  }

  /**
   * Every revocation on disk now (read again only when the file changed). `null` when the file
   * exists but cannot be read: the caller takes every grant away.
   */
  current(): readonly Revocation[] | null {
    let st: { size: number; mtimeMs: number; ino: number };
    try {
      // No file (the usual case: nothing was ever revoked) is not an error: asked before every
      // call, a thrown ENOENT cost more than the check itself (issue 27).
      const s = statSync(this.file, { throwIfNoEntry: false });
      if (!s) {
        this.seen = null;
        this.records = [];
        this.unreadable = false;
        return this.records;
      }
      st = { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
    } catch {
      return null;
    }
    if (this.seen && this.seen.size === st.size && this.seen.mtimeMs === st.mtimeMs && this.seen.ino === st.ino) return this.unreadable ? null : this.records;
    try {
      const text = readFileSync(this.file, 'utf8');
      this.records = parseLines(text);
      this.unreadable = false;
    } catch {
      this.unreadable = true;
    }
    this.seen = st;
    return this.unreadable ? null : this.records;
  }
}

function parseLines(text: string): Revocation[] {
  const out: Revocation[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = Revocation.safeParse(JSON.parse(line));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // A torn or foreign line names nothing.
    }
  }
  return out;
}
