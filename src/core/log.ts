import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from './secrets/scrub.js';

/** Structured lines in `$PEPE_HOME/logs/pepe.jsonl` (spec 2): slot fallbacks, plugin errors, approvals. */
export type LogRecord =
  | { kind: 'slot_fallback'; slot: string; occupant: string; agent: string | null; reason: string; detail: string; durationMs: number; outcome: 'builtin' | 'refused' | 'error' }
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

  write(record: LogRecord): LogEntry {
    const entry = { ts: new Date().toISOString(), ...record } as LogEntry;
    // One appendFileSync per line: O_APPEND keeps concurrent writers' lines whole.
    const line = redact(JSON.stringify(entry), this.secrets()) + '\n';
    try {
      mkdirSync(this.dir, { recursive: true });
      appendFileSync(this.file, line);
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

  /** Every parsed line; unreadable lines are skipped. */
  readAll(): LogEntry[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    const out: LogEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as LogEntry);
      } catch {
        // a torn last line from a crash
      }
    }
    return out;
  }
}
