/// <reference lib="dom" />
import { h, icon } from './dom.js';
import { renderMarkdown, stableSplit } from './markdown.js';
import type { Frames } from './frames.js';

/** Up to this size a finished answer is rendered once more as a whole (exact markdown). */
const FULL_RENDER_LIMIT = 20_000;

/**
 * An assistant message. While it streams, deltas are appended to `text` and the markdown is
 * re-rendered at most once per animation frame, and only its unstable tail: everything before the
 * last blank line outside a code fence is rendered once into `frozen` and never touched again, so
 * the cost of a frame does not grow with the length of the answer.
 */
export class AssistantMessage {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private frozen: HTMLElement;
  private tail: HTMLElement;
  private text = '';
  private committed = 0;
  private streaming = false;

  constructor(agent: string, private readonly frames: Frames) {
    this.frozen = h('div', { class: 'md-frozen' });
    this.tail = h('div', { class: 'md-tail' });
    this.body = h('div', { class: 'markdown' }, this.frozen, this.tail);
    this.el = h('article', { class: 'msg assistant', 'aria-label': `${agent} says` }, h('div', { class: 'msg-author' }, icon('hubot'), ` ${agent}`), this.body);
  }

  get content(): string {
    return this.text;
  }

  append(delta: string): void {
    if (!this.streaming) {
      this.streaming = true;
      this.el.classList.add('streaming');
      this.el.setAttribute('aria-busy', 'true');
    }
    this.text += delta;
    this.frames.schedule(this);
  }

  /** Called by Frames once per animation frame while there is new text. */
  renderFrame(): void {
    const split = stableSplit(this.text, this.committed);
    if (split > this.committed) {
      this.frozen.append(renderMarkdown(this.text.slice(this.committed, split)));
      this.committed = split;
    }
    this.tail.replaceChildren(renderMarkdown(this.text.slice(this.committed)));
  }

  /** The message is complete (assistant_message or turn_end): `content` is the final text. */
  finish(content: string | null): void {
    this.frames.cancel(this);
    const final = content ?? this.text;
    if (final !== this.text || final.length <= FULL_RENDER_LIMIT || this.committed === 0) {
      this.text = final;
      this.committed = 0;
      this.frozen.replaceChildren();
      this.tail.replaceChildren(renderMarkdown(final));
    } else {
      this.renderFrame();
    }
    this.streaming = false;
    this.el.classList.remove('streaming');
    this.el.removeAttribute('aria-busy');
  }
}
