/// <reference lib="dom" />
import { h, icon } from './dom.js';
import type { Frames } from './frames.js';

/** How close to the bottom (px) still counts as "at the newest content". */
const NEAR_BOTTOM = 48;
/** A scroll up this soon after the person's own wheel, key or pointer is theirs (ms). */
const USER_INPUT_WINDOW = 1000;
const SCROLL_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

/**
 * The transcript follows the conversation (issue 26): it stays at the newest content unless the
 * person scrolled up, and then a "Jump to latest" button brings them back (and following resumes).
 *
 * Only the person unsticks it: a scroll up counts when it follows their wheel, key or pointer.
 * Layout alone moves the scroll position too (off-screen turns are sized lazily by
 * `content-visibility`, a terminal or diff opening resizes the panel, a card opens) and those must
 * not stop the following, so any resize of the transcript or its content keeps the bottom in view.
 */
export class ScrollFollow {
  readonly button: HTMLButtonElement;
  private sticking = true;
  private lastTop = 0;
  private userInputAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly root: HTMLElement, frames: Frames) {
    this.button = h('button', { type: 'button', class: 'jump-latest', 'data-action': 'jump-latest', hidden: true, title: 'Scroll to the newest message and keep following' }, icon('arrow-down'), ' Jump to latest');
    const bar = h('div', { class: 'jump-latest-bar' }, this.button);
    root.after(bar);
    this.button.addEventListener('click', () => this.jump());
    const user = () => (this.userInputAt = performance.now());
    root.addEventListener('wheel', user, { passive: true });
    root.addEventListener('touchmove', user, { passive: true });
    root.addEventListener('pointerdown', user, { passive: true });
    root.addEventListener('keydown', (e) => {
      if (SCROLL_KEYS.has(e.key)) user();
    });
    root.addEventListener('scroll', () => this.onScroll(), { passive: true });
    frames.afterEachFrame(() => this.follow());
    const resized = new ResizeObserver(() => this.follow());
    resized.observe(root);
    // New children (a turn, a notice) and their growth: observed as they are added.
    new MutationObserver((records) => {
      for (const r of records) r.addedNodes.forEach((n) => n instanceof Element && resized.observe(n));
      this.follow();
    }).observe(root, { childList: true });
  }

  /** True while the newest content is kept in view. */
  get following(): boolean {
    return this.sticking;
  }

  /** Back to the newest content, following again (a new conversation, the button, sending a message). */
  jump(): void {
    this.sticking = true;
    this.button.hidden = true;
    this.toBottom();
  }

  private atBottom(): boolean {
    return this.root.scrollTop + this.root.clientHeight >= this.root.scrollHeight - NEAR_BOTTOM;
  }

  private onScroll(): void {
    const top = this.root.scrollTop;
    const movedUp = top < this.lastTop - 1;
    this.lastTop = top;
    if (this.atBottom()) {
      this.sticking = true;
      this.button.hidden = true;
    } else if (movedUp && performance.now() - this.userInputAt < USER_INPUT_WINDOW) {
      this.sticking = false;
      this.button.hidden = false;
    }
  }

  private follow(): void {
    if (this.sticking) this.toBottom();
    else this.button.hidden = this.atBottom();
  }

  private toBottom(): void {
    this.root.scrollTop = this.root.scrollHeight;
    this.lastTop = this.root.scrollTop;
  }
}
