import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as z from '../zod.js';
import { UsageError } from '../errors.js';
import { appendLine, JsonLinesReader } from '../jsonl.js';
import { Message } from '../messages.js';
import { SESSION_ORIGINS, type SessionOrigin } from '../events.js';
import { joinTaint, type ConversationTaint } from '../permissions/run-state.js';
import { RedactorCache } from '../secrets/redactor-cache.js';
import { plainMessageLine } from './session-line-check.js';
import { compareCodeUnits } from '../code-unit-order.js';
import { LruMap } from './lru-map.js';
import { randomHex } from '../random-id.js';

export { SESSION_ORIGINS, type SessionOrigin };

/**
 * Transcripts (spec 4.8): `sessions/<agent>/<id>.jsonl`, one JSON object per line, append-only,
 * so a crash loses at most the line being written. Lines are discriminated on `type`.
 */
const Line = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('session'), id: z.string(), agent: z.string(), createdAt: z.string(), title: z.optional(z.string()), origin: z.optional(z.string()) }),
  z.looseObject({ type: z.literal('message'), ts: z.string(), turnId: z.optional(z.string()), message: Message, hidden: z.optional(z.boolean()) }),
  z.looseObject({ type: z.literal('rename'), ts: z.string(), title: z.string() }),
  z.looseObject({ type: z.literal('bootstrap'), ts: z.string(), context: z.array(z.string()) }),
  z.looseObject({ type: z.literal('state'), ts: z.string(), scope: z.string(), value: z.unknown() }),
  /** Compaction replaced the model's view of everything before this line (spec 4.5). */
  z.looseObject({ type: z.literal('compaction'), ts: z.string(), messages: z.array(Message) }),
  /**
   * The conversation's taint (spec 5.3, revised): `add` joins what a run took in to what earlier
   * lines say; `trusted` is the person's "trust this conversation again", which clears the
   * outside content (reads outside the workspace and secret-looking files stay). Its own line
   * type, so nothing else written into a session (an agent core's state) can pass for one.
   */
  z.looseObject({
    type: z.literal('taint'),
    ts: z.string(),
    change: z.enum(['add', 'trusted']),
    sources: z.optional(z.array(z.string())),
    readOutsideWorkspace: z.optional(z.boolean()),
    secretFiles: z.optional(z.array(z.string())),
  }),
]);
type Line = z.infer<typeof Line>;

/**
 * One transcript line as the schema decides it: valid (its value) or not (undefined). The plain
 * message lines a session is mostly made of take a cheaper check that accepts only what the schema
 * accepts, with the same value (session-line-check.ts); every other line goes through the schema.
 */
export function parseSessionLine(value: unknown): Line | undefined {
  return (plainMessageLine(value) as Line | undefined) ?? Line.safeParse(value).data;
}

/** The schema alone, for tests that compare it with `parseSessionLine`. */
export function parseSessionLineStrictly(value: unknown): Line | undefined {
  return Line.safeParse(value).data;
}

export interface SessionInfo {
  id: string;
  agent: string;
  title: string | null;
  origin: SessionOrigin;
  createdAt: string;
  updatedAt: string;
  messages: number;
  /** Where the outside content this conversation took in came from; empty when none (or trusted again since). */
  outsideContent: string[];
}

export interface LoadedSession {
  info: SessionInfo;
  /** Messages as the model sees them (hidden ones excluded). */
  messages: Message[];
  /** The bootstrap snapshot persisted for this session (spec 7), if any. */
  bootstrap: string[] | null;
  state: Record<string, unknown>;
  /** What the conversation keeps of its runs' taint; null when it has none. */
  taint: ConversationTaint | null;
  /** Compaction condensed this session at least once (spec 4.5). */
  compacted: boolean;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export class SessionStore {
  private readonly redactors = new RedactorCache();
  /**
   * Each transcript's summary as last read, with the file's stamp then: a listing (the chat's
   * history, `pepe sessions list`) reads only the transcripts that changed since the last one, not
   * every transcript a person ever kept, each time (issue 27).
   */
  private readonly summaries = new LruMap<string, { stamp: string; info: SessionInfo }>(MAX_SUMMARIES);
  /**
   * The transcripts loaded lately, each read incrementally: a turn (which loads its session, some
   * more than once) parses only the lines written since the last load and folds them into what
   * the earlier ones said, not the whole conversation again (issue 27).
   */
  private readonly transcripts = new LruMap<string, { lines: JsonLinesReader<Line>; folded: SessionFold }>(MAX_TRANSCRIPTS);

  constructor(private readonly dir: string, private readonly secrets: () => readonly string[] = () => []) {}

  newId(): string {
    const d = new Date();
    const stamp = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
    return `${stamp}-${randomHex(4)}`;
  }

  private file(agent: string, id: string): string {
    if (!ID.test(id)) throw new UsageError(`invalid session id "${id}"`);
    return join(this.dir, agent, `${id}.jsonl`);
  }

  exists(agent: string, id: string): boolean {
    try {
      statSync(this.file(agent, id));
      return true;
    } catch {
      return false;
    }
  }

  create(agent: string, opts: { id?: string; origin?: SessionOrigin; title?: string } = {}): string {
    const id = opts.id ?? this.newId();
    mkdirSync(join(this.dir, agent), { recursive: true });
    const title = opts.title ? { title: opts.title } : {};
    this.append(agent, id, { type: 'session', id, agent, createdAt: new Date().toISOString(), origin: opts.origin ?? 'user', ...title });
    return id;
  }

  appendMessage(agent: string, id: string, message: Message, extra: { turnId?: string; hidden?: boolean } = {}): void {
    this.append(agent, id, { type: 'message', ts: new Date().toISOString(), message, ...extra });
  }

  appendBootstrap(agent: string, id: string, context: string[]): void {
    this.append(agent, id, { type: 'bootstrap', ts: new Date().toISOString(), context });
  }

  appendState(agent: string, id: string, scope: string, value: unknown): void {
    this.append(agent, id, { type: 'state', ts: new Date().toISOString(), scope, value });
  }

  appendCompaction(agent: string, id: string, messages: Message[]): void {
    this.append(agent, id, { type: 'compaction', ts: new Date().toISOString(), messages });
  }

  /** Joins what a run took in to the conversation's taint (only what is new: lines add up). */
  appendTaint(agent: string, id: string, added: ConversationTaint): void {
    this.append(agent, id, { type: 'taint', ts: new Date().toISOString(), change: 'add', ...added });
  }

  /**
   * The person's "I have read it; trust this conversation again": clears the outside content
   * from the conversation's taint. Returns whether there was any. Never offered to a model.
   */
  trust(agent: string, id: string): boolean {
    if (!this.exists(agent, id)) throw noSession(agent, id);
    const had = (this.load(agent, id).taint?.sources.length ?? 0) > 0;
    this.append(agent, id, { type: 'taint', ts: new Date().toISOString(), change: 'trusted' });
    return had;
  }

  rename(agent: string, id: string, title: string): void {
    if (!this.exists(agent, id)) throw new UsageError(`no session ${id} for agent ${agent}`);
    this.append(agent, id, { type: 'rename', ts: new Date().toISOString(), title });
  }

  private append(agent: string, id: string, line: Line): void {
    // Secrets never reach a transcript (spec 4.2, 8): known values and credential shapes are
    // masked in each string, then known values again on the serialised line.
    appendLine(this.file(agent, id), this.redactors.get(this.secrets()).json(line));
  }

  /**
   * The session as its transcript says now. The message objects (and state values) are shared
   * with the next load of a kept transcript: read them, never change them in place; the arrays
   * and objects around them are the caller's. `keep: false` reads a transcript that is not kept
   * without keeping it.
   */
  load(agent: string, id: string, opts: { keep?: boolean } = {}): LoadedSession {
    const file = this.file(agent, id);
    let kept = this.transcripts.get(file);
    // A look through many sessions (a search) keeps none of them: the chats' transcripts stay kept.
    if (!kept && opts.keep === false) return this.loadOnce(agent, id);
    if (!kept) {
      kept = { lines: new JsonLinesReader<Line>(file, parseSessionLine), folded: new SessionFold(agent, id) };
      this.transcripts.set(file, kept);
    }
    const next = kept.lines.next();
    if (!next) {
      this.transcripts.delete(file);
      throw noSession(agent, id);
    }
    if (next.restarted) kept.folded = new SessionFold(agent, id);
    for (const line of next.added) kept.folded.add(line);
    return kept.folded.session();
  }

  /**
   * A load that keeps nothing (a listing's summaries, which would push the chats' transcripts
   * out), read the way a kept load reads: a last line still being written (no newline yet) waits.
   */
  private loadOnce(agent: string, id: string): LoadedSession {
    const next = new JsonLinesReader<Line>(this.file(agent, id), parseSessionLine).next();
    if (!next) throw noSession(agent, id);
    const folded = new SessionFold(agent, id);
    for (const line of next.added) folded.add(line);
    return folded.session();
  }

  /** Newest first; `origins` keeps only sessions started that way (a chat's history: `['user']`). */
  list(agent?: string, filter: { origins?: readonly SessionOrigin[] } = {}): SessionInfo[] {
    const agents = agent ? [agent] : safeReaddir(this.dir);
    const out: SessionInfo[] = [];
    for (const a of agents) {
      for (const f of safeReaddir(join(this.dir, a))) {
        if (!f.endsWith('.jsonl')) continue;
        const info = this.summary(a, f.slice(0, -'.jsonl'.length));
        if (info) out.push(info);
      }
    }
    const kept = filter.origins ? out.filter((i) => filter.origins!.includes(i.origin)) : out;
    // Newest first by ISO time stamp.
    return kept.sort((x, y) => compareCodeUnits(y.updatedAt, x.updatedAt));
  }

  /**
   * A transcript's summary: the one read last while the file is unchanged (same file, size,
   * modification and change times), else read afresh. Null when it cannot be read (skipped).
   */
  private summary(agent: string, id: string): SessionInfo | null {
    let file: string;
    try {
      file = this.file(agent, id);
    } catch {
      return null;
    }
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st) {
      this.summaries.delete(file);
      return null;
    }
    // Stamped before reading: a line appended meanwhile changes the stamp, so the next listing reads it.
    const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    let known = this.summaries.get(file);
    if (known?.stamp !== stamp) {
      try {
        known = { stamp, info: this.loadOnce(agent, id).info };
      } catch {
        this.summaries.delete(file);
        return null;
      }
      this.summaries.set(file, known);
    }
    // A copy: what a caller does with it never changes what the next listing says.
    return { ...known.info, outsideContent: [...known.info.outsideContent] };
  }

  delete(agent: string, id: string): void {
    if (!this.exists(agent, id)) throw new UsageError(`no session ${id} for agent ${agent}`);
    rmSync(this.file(agent, id));
    this.summaries.delete(this.file(agent, id));
    this.transcripts.delete(this.file(agent, id));
  }
}

/** Transcripts whose summaries are kept (a few hundred bytes each). */
const MAX_SUMMARIES = 4096;
/** Transcripts kept parsed: the chats open at once, with room to spare. */
const MAX_TRANSCRIPTS = 8;

/** A transcript's lines (a torn or unknown line already skipped) folded, one by one, into the session they say. */
class SessionFold {
  private readonly messages: Message[] = [];
  private bootstrap: string[] | null = null;
  private readonly state: Record<string, unknown> = {};
  private taint: ConversationTaint | null = null;
  private compacted = false;
  private info: SessionInfo;

  constructor(agent: string, id: string) {
    this.info = { id, agent, title: null, origin: 'user', createdAt: '', updatedAt: '', messages: 0, outsideContent: [] };
  }

  add(line: Line): void {
    switch (line.type) {
      case 'session':
        this.info = { ...this.info, createdAt: line.createdAt, title: line.title ?? null, origin: originOf(line.origin, line.title), updatedAt: line.createdAt };
        break;
      case 'message':
        if (!line.hidden) this.messages.push(line.message);
        this.info.messages++;
        this.info.updatedAt = line.ts;
        break;
      case 'rename':
        this.info.title = line.title;
        break;
      case 'bootstrap':
        this.bootstrap = line.context;
        break;
      case 'state':
        this.state[line.scope] = line.value;
        break;
      case 'compaction':
        this.messages.splice(0, this.messages.length, ...line.messages);
        this.compacted = true;
        break;
      case 'taint':
        this.taint = nextTaint(this.taint, line);
        break;
    }
  }

  /** The session so far, in arrays and objects of the caller's own. */
  session(): LoadedSession {
    const t = this.taint;
    const taint = t && (t.sources.length || t.readOutsideWorkspace || t.secretFiles?.length) ? { ...t, sources: [...t.sources], ...(t.secretFiles ? { secretFiles: [...t.secretFiles] } : {}) } : null;
    const info = { ...this.info, outsideContent: taint?.sources ?? [] };
    return { info, messages: [...this.messages], bootstrap: this.bootstrap && [...this.bootstrap], state: { ...this.state }, taint, compacted: this.compacted };
  }
}

/** The conversation's taint after one `taint` line. */
function nextTaint(taint: ConversationTaint | null, line: Extract<Line, { type: 'taint' }>): ConversationTaint | null {
  if (line.change === 'trusted') return taint === null ? null : { ...taint, sources: [] };
  return joinTaint(taint, { sources: line.sources ?? [], ...(line.readOutsideWorkspace ? { readOutsideWorkspace: true } : {}), ...(line.secretFiles ? { secretFiles: line.secretFiles } : {}) });
}

/** Sessions written before origins were recorded are known by the titles the runtime gave them. */
function originOf(recorded: string | undefined, title: string | undefined): SessionOrigin {
  if ((SESSION_ORIGINS as readonly string[]).includes(recorded ?? '')) return recorded as SessionOrigin;
  if (recorded !== undefined) return 'user';
  if (title?.startsWith('routed from ')) return 'routed';
  if (title?.startsWith('child of ')) return 'child';
  if (title && /^heartbeat \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(title)) return 'heartbeat';
  return 'user';
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** The error for a session id that names no transcript of that agent. */
export function noSession(agent: string, id: string): UsageError {
  return new UsageError(`no session ${id} for agent ${agent}; see pepe sessions list ${agent}`);
}
