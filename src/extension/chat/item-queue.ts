import type { ChatItem } from '../../protocol/messages.js';

/**
 * A panel's conversation items and the batch not yet sent to its webview. Deltas of the same
 * streaming message are merged (in both), so a long answer is a few items, not one per token, and
 * the webview gets at most one `items` message per frame (FLUSH_MS).
 */
export class ItemQueue {
  static readonly FLUSH_MS = 16;
  private items: ChatItem[] = [];
  private outbox: ChatItem[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** True while a webview has said `ready` and got the items so far. */
  attached = false;

  constructor(private readonly send: (items: ChatItem[]) => void) {}

  push(item: ChatItem): void {
    appendMerged(this.items, item);
    if (!this.attached) return;
    appendMerged(this.outbox, item);
    this.timer ??= setTimeout(() => this.flush(), ItemQueue.FLUSH_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.outbox.length || !this.attached) return;
    const batch = this.outbox;
    this.outbox = [];
    this.send(batch);
  }

  /** Every item, for an `init` or `reset`; what was waiting to be sent is included, so it is dropped. */
  snapshot(): ChatItem[] {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.outbox = [];
    return [...this.items];
  }

  reset(items: ChatItem[]): void {
    this.items = [...items];
    this.outbox = [];
  }

  /** The webview said `ready`: it gets `snapshot()` in its init, then batches. */
  attach(): ChatItem[] {
    this.attached = true;
    return this.snapshot();
  }

  /** The webview is gone (hidden): stop batching until it says `ready` again. */
  detach(): void {
    this.attached = false;
    this.outbox = [];
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function appendMerged(list: ChatItem[], item: ChatItem): void {
  const last = list.at(-1);
  if (
    item.kind === 'event' && item.event.type === 'assistant_delta' &&
    last?.kind === 'event' && last.event.type === 'assistant_delta' &&
    last.event.path.join('\u0000') === item.event.path.join('\u0000')
  ) {
    list[list.length - 1] = { kind: 'event', event: { ...last.event, text: last.event.text + item.event.text } };
    return;
  }
  list.push(item);
}
