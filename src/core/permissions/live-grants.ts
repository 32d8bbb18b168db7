import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import * as z from '../zod.js';
import { scopedEntry } from './grant-scope.js';
import { RevocationLog, revocationMatches, type Revocation } from './grant-revocations.js';
import type { BarrierLiveGrants } from './barrier-types.js';
import type { RunPermissionState } from './run-state.js';
import type { SavedOnDisk } from './saved-on-disk.js';
import { canonicalJson, type SessionGrants } from './session-grants.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * What one process holds in memory that lets a call run unasked (issue 25): each session's grants
 * and bypass, and the task grants of the turns running now. The process writes them to a file of
 * its own (`grants/live-<pid>.json` in PEPE_HOME) whenever they change, so `pepe grants list` and
 * every window's Grants view can show them; and before each call it reads the revocations file
 * (grant-revocations.ts) and drops what was revoked, so a revocation from anywhere holds for the
 * very next call.
 */

export const LIVE_PREFIX = 'live-';

export const LiveGrantRow = lazySchema(() =>
  z.strictObject({
    id: z.string(),
    kind: z.enum(['session', 'task', 'bypass']),
    agent: z.string(),
    sessionId: z.string(),
    tool: z.optional(z.string()),
    /** The scope as written (`bash:network`, `bash`, `*`); for an exact grant the call itself. */
    entry: z.string(),
    /** For a session grant: exactly these arguments, any arguments, or calls with these risks. */
    grant: z.enum(['exact', 'any', 'risks', 'task', 'bypass']),
    at: z.number(),
  }),
);
export type LiveGrantRow = z.infer<typeof LiveGrantRow>;

export const LiveFile = lazySchema(() =>
  z.strictObject({
    pid: z.int(),
    written: z.number(),
    grants: z.array(LiveGrantRow).check(z.maxLength(10_000)),
    /** Conversations this process ran a turn in (for their taint): newest last. */
    sessions: z.array(z.strictObject({ agent: z.string(), sessionId: z.string() })).check(z.maxLength(1000)),
  }),
);
export type LiveFile = z.infer<typeof LiveFile>;

/** A stable ID for a grant: the same grant gets the same ID in every listing and every process. */
export function grantId(prefix: string, ...parts: string[]): string {
  return `${prefix}-${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 8)}`;
}

const MAX_SESSIONS = 200;
const MAX_ENTRY = 300;

export class LiveGrants {
  /** By the caller's key (one session may have a barrier with a person and one without). */
  private readonly sessions = new Map<string, { agent: string; sessionId: string; grants: SessionGrants }>();
  private readonly runs = new Set<{ agent: string; sessionId: string; run: RunPermissionState }>();
  private readonly seen: { agent: string; sessionId: string }[] = [];
  readonly revocations: RevocationLog;
  private readonly file: string;
  private published = false;
  /** What the file says now, `written` aside: an unchanged listing is not written again. */
  private lastBody: string | null = null;

  constructor(readonly dir: string, private readonly pid = process.pid) {
    this.revocations = new RevocationLog(join(dir, 'revocations.jsonl'));
    this.file = join(dir, `${LIVE_PREFIX}${pid}.json`);
  }

  /** A session's grants join what this process publishes (the oldest are let go past a bound). */
  adopt(key: string, agent: string, sessionId: string, grants: SessionGrants): void {
    this.sessions.delete(key);
    this.sessions.set(key, { agent, sessionId, grants });
    while (this.sessions.size > MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value as string;
      this.sessions.get(oldest)!.grants.onChange = undefined;
      this.sessions.delete(oldest);
    }
    grants.onChange = () => this.publish();
    this.publish();
  }

  /** A running turn's task grants are published until it ends (call the returned function). */
  trackRun(agent: string, sessionId: string, run: RunPermissionState): () => void {
    const entry = { agent, sessionId, run };
    this.runs.add(entry);
    // A routed or child run may start with its caller's task grants.
    if ((run.taskGrants?.length ?? 0) > 0) this.publish();
    return () => {
      this.runs.delete(entry);
      if ((run.taskGrants?.length ?? 0) > 0) this.publish();
    };
  }

  /**
   * Before a call: what was revoked since it was given goes, from the session's grants and the
   * run's task grants. An unreadable revocations file takes all of them away.
   */
  enforce(sessionId: string | undefined, grants: SessionGrants, run: RunPermissionState): void {
    const records = this.revocations.current();
    const drops = (g: { id: string; agent: string; tool?: string; entry: string; at: number }) => records === null || records.some((r) => revocationMatches(r, g));
    if (records !== null && records.length === 0) return;
    const sid = sessionId ?? '';
    grants.revokeWhere((g) => drops({ ...g, id: sessionRowId(sid, g) }));
    const tasks = run.taskGrants;
    if (tasks?.length) {
      const kept = tasks.filter((t) => !drops({ id: taskRowId(sid, t), agent: t.agent, tool: t.tool, entry: scopedEntry(t.tool, t.risks, t.programs), at: t.at ?? 0 }));
      if (kept.length !== tasks.length) {
        tasks.splice(0, tasks.length, ...kept);
        this.publish();
      }
    }
  }

  /** Everything held now, as rows. */
  rows(): LiveGrantRow[] {
    const out: LiveGrantRow[] = [];
    for (const { sessionId, grants } of this.sessions.values()) {
      // Most sessions hold no grant: asked by size, not by a list built for each on every publish.
      if (!grants.size) continue;
      for (const g of grants.list()) {
        const entry = clip(g.grant === 'exact' ? exactText(g.tool!, g.args) : g.entry);
        out.push({ id: sessionRowId(sessionId, g), kind: g.grant === 'bypass' ? 'bypass' : 'session', agent: g.agent, sessionId, ...(g.tool ? { tool: g.tool } : {}), entry, grant: g.grant, at: g.at });
      }
    }
    for (const { sessionId, run } of this.runs) {
      for (const t of run.taskGrants ?? []) {
        out.push({ id: taskRowId(sessionId, t), kind: 'task', agent: t.agent, sessionId, tool: t.tool, entry: scopedEntry(t.tool, t.risks, t.programs), grant: 'task', at: t.at ?? 0 });
      }
    }
    return dedupe(out);
  }

  /**
   * Writes this process's file (atomically: a reader sees the old listing or the new one, never a
   * mix); a failure is never a permission decision. A listing equal to the one written last is not
   * written again while its file exists. Not synced to the disk: the file describes this process while it runs, so after
   * a crash of the machine it describes nothing (and a dead process's file is removed on reading).
   */
  publish(): void {
    const rows = this.rows();
    if (!rows.length && !this.published && !this.seen.length) return;
    const same = JSON.stringify([rows, this.seen]);
    // Skipped only while the file written last is still there: another process may have removed
    // it (taking this process for dead) or a disposed listing with the same pid did.
    if (this.published && same === this.lastBody && existsSync(this.file)) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      const body: LiveFile = { pid: this.pid, written: Date.now(), grants: rows, sessions: [...this.seen] };
      writeFileAtomic.sync(this.file, `${JSON.stringify(body)}\n`, { mode: 0o600, fsync: false });
      this.published = true;
      this.lastBody = same;
    } catch {
      // Listing is best effort; revocation does not depend on this file.
    }
  }

  /** The process is ending: its grants end with it. */
  dispose(): void {
    for (const { grants } of this.sessions.values()) grants.onChange = undefined;
    this.sessions.clear();
    this.runs.clear();
    if (this.published) rmSync(this.file, { force: true });
    this.published = false;
    this.lastBody = null;
  }

  /**
   * An open conversation that withholds approvals (it took in outside content, now or earlier):
   * listed so another process's `grants list` can say why its calls ask. Only such conversations
   * are listed: noting every session a process opens cost a write of this file per new session,
   * on every turn (issue 27), and an untainted session has nothing to show there.
   */
  noteTainted(agent: string, sessionId: string): void {
    const last = this.seen[this.seen.length - 1];
    if (last && last.agent === agent && last.sessionId === sessionId) return;
    this.noteSession(agent, sessionId);
  }

  private noteSession(agent: string, sessionId: string): void {
    const at = this.seen.findIndex((s) => s.sessionId === sessionId && s.agent === agent);
    if (at !== -1) this.seen.splice(at, 1);
    this.seen.push({ agent, sessionId });
    if (this.seen.length > MAX_SESSIONS) this.seen.shift();
    this.publish();
  }
}

/** Every live process's file in `dir`; files of processes that are gone are removed. */
export function readLiveFiles(dir: string, alive: (pid: number) => boolean = processAlive): LiveFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(LIVE_PREFIX) && n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: LiveFile[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let parsed: LiveFile | null = null;
    try {
      const r = LiveFile.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (r.success) parsed = r.data;
    } catch {
      // unreadable: shown as nothing
    }
    if (!parsed || `${LIVE_PREFIX}${parsed.pid}.json` !== name) continue;
    if (!alive(parsed.pid)) {
      rmSync(path, { force: true });
      continue;
    }
    out.push(parsed);
  }
  return out;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The revocation record a row would be matched against (for tests and the listing). */
export function rowRevoked(records: readonly Revocation[], row: LiveGrantRow): boolean {
  return records.some((r) => revocationMatches(r, row));
}

function sessionRowId(sessionId: string, g: { grant: string; agent: string; entry: string; tool?: string; args?: unknown }): string {
  return grantId(g.grant === 'bypass' ? 'b' : 's', sessionId, g.agent, g.grant, g.grant === 'exact' ? exactText(g.tool!, g.args) : g.entry);
}

function taskRowId(sessionId: string, t: { agent: string; tool: string; risks: readonly string[]; programs?: readonly string[] }): string {
  return grantId('t', sessionId, t.agent, scopedEntry(t.tool, t.risks as never, t.programs));
}

/** An exact grant in one line: a command as written, else the arguments as JSON. */
function exactText(tool: string, args: unknown): string {
  const a = args as { command?: unknown; path?: unknown } | null;
  if (typeof a?.command === 'string') return `${tool} ${a.command}`;
  if (typeof a?.path === 'string' && Object.keys(a).length === 1) return `${tool} ${a.path}`;
  return `${tool} ${canonicalJson(args)}`;
}

function clip(text: string): string {
  return text.length > MAX_ENTRY ? `${text.slice(0, MAX_ENTRY)}…` : text;
}

function dedupe(rows: LiveGrantRow[]): LiveGrantRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}

/** What a barrier is given: revocations from any process, saved entries as they are on disk. */
export function barrierLiveGrants(live?: LiveGrants, saved?: SavedOnDisk): BarrierLiveGrants | undefined {
  if (!live && !saved) return undefined;
  return {
    enforce: (sessionId, grants, run) => live?.enforce(sessionId, grants, run),
    savedStands: (agent, entry) => saved?.stands(agent, entry) ?? true,
    changed: () => live?.publish(),
  };
}
