import type { TurnEvent } from '../events.js';
import { Redactor, StreamRedactor } from './redact.js';

/**
 * Masks secrets in a turn's event stream (known values and credential shapes) before any
 * surface reads it: the runtime wraps every turn's sink in one (`pepe run`, `pepe chat`, the
 * editor's chat all get the masked stream). Answer deltas go through a StreamRedactor per route path, so a key the
 * model spells out across two deltas is still caught; any other event first releases what the
 * deltas held back, so the order of the stream is kept.
 */
export class TurnEventRedactor {
  readonly redactor: Redactor;
  private readonly streams = new Map<string, { path: string[]; stream: StreamRedactor }>();

  constructor(
    secrets: Iterable<string>,
    private readonly out: (event: TurnEvent) => void,
  ) {
    this.redactor = new Redactor(secrets);
  }

  handle(event: TurnEvent): void {
    if (event.type === 'assistant_delta') {
      const key = event.path.join('\u0000');
      let entry = this.streams.get(key);
      if (!entry) this.streams.set(key, (entry = { path: event.path, stream: new StreamRedactor(this.redactor) }));
      const text = entry.stream.push(event.text);
      if (text) this.out({ ...event, text });
      return;
    }
    this.flush();
    this.out(this.redactor.value(event));
  }

  /** Releases every held-back piece (called before any other event, and once at the end). */
  flush(): void {
    for (const [key, { path, stream }] of this.streams) {
      const text = stream.flush();
      this.streams.delete(key);
      if (text) this.out({ type: 'assistant_delta', path, text });
    }
  }

  /** One event as a JSON line, masked on the value and again on the serialised text. */
  json(event: TurnEvent): string {
    return this.redactor.json(event);
  }
}
