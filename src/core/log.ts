import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { appendLine, JsonLinesFile, readJsonLines } from './jsonl.js';
import { Redactor } from './secrets/redact.js';

/** Structured lines in `$PEPE_HOME/logs/pepe.jsonl` (spec 2): slot fallbacks, plugin errors, approvals. */
export type LogRecord =
  | { kind: 'slot_fallback'; slot: string; occupant: string; agent: string | null; reason: string; detail: string; durationMs: number; outcome: 'builtin' | 'refused' | 'error' }
  /** A slot's plugin answered cleanly after a fallback; or its record was cleared by `slot set`/`slot clear`. */
  | { kind: 'slot_recovered'; slot: string; occupant: string; agent: string | null }
  | { kind: 'slot_record_cleared'; slot: string; by: 'set' | 'clear' }
  | { kind: 'plugin_output'; plugin: string; text: string }
  | { kind: 'plugin_error'; plugin: string; detail: string }
  | { kind: 'info'; message: string; [k: string]: unknown };

export type LogEntry = LogRecord & { ts: string };

export class EventLog {
  readonly file: string;
  private listeners = new Set<(entry: LogEntry) => void>();

  constructor(dir: string, private readonly secrets: () => readonly string[] = () => []) {
    this.file = join(dir, 'pepe.jsonl');
    this.dir = dir;
  }
  private readonly dir: string;
  private readonly byKind = new Map<string, JsonLinesFile<LogEntry>>();

  write(record: LogRecord): LogEntry {
    // Spec 8: masked before it is written or handed to a listener (the editor's log channel).
    const redactor = new Redactor(this.secrets());
    const entry = redactor.value({ ts: new Date().toISOString(), ...record } as LogEntry);
    // One appendFileSync per line: O_APPEND keeps concurrent writers' lines whole.
    const line = redactor.json(entry);
    try {
      mkdirSync(this.dir, { recursive: true });
      appendLine(this.file, line);
    } catch {
      // A log that cannot be written never breaks a turn.
    }
    for (const l of this.listeners) l(entry);
    return entry;
  }

  onEntry(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every parsed line, read now; unreadable lines are skipped. */
  readAll(): LogEntry[] {
    return readJsonLines<LogEntry>(this.file);
  }

  /**
   * The lines of one kind, oldest first. Cached for hot paths (the Slots view asks on every
   * refresh): unchanged, a call costs one fstat; grown, only the appended bytes are parsed. Only
   * lines of that kind are kept in memory, not the whole log. The same array is returned until
   * the file changes; do not modify it.
   */
  readKind<K extends LogEntry['kind']>(kind: K): readonly Extract<LogEntry, { kind: K }>[] {
    let lines = this.byKind.get(kind);
    if (!lines) {
      lines = new JsonLinesFile<LogEntry>(this.file, (v) => ((v as { kind?: unknown } | null)?.kind === kind ? (v as LogEntry) : undefined));
      this.byKind.set(kind, lines);
    }
    return lines.read() as readonly Extract<LogEntry, { kind: K }>[];
  }
}
