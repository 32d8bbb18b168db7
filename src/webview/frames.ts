/// <reference lib="dom" />

export interface FrameRenderable {
  renderFrame(): void;
}

/**
 * Coalesces rendering to one pass per animation frame: streaming messages mark themselves dirty
 * and are rendered once per frame however many deltas arrived; afterwards the transcript keeps
 * the bottom in view if the person was already there.
 */
export class Frames {
  private dirty = new Set<FrameRenderable>();
  private pending = false;
  private readonly after: (() => void)[] = [];

  schedule(item: FrameRenderable): void {
    this.dirty.add(item);
    this.request();
  }

  cancel(item: FrameRenderable): void {
    this.dirty.delete(item);
  }

  /** Runs `fn` after the renders of every frame. */
  afterEachFrame(fn: () => void): void {
    this.after.push(fn);
  }

  request(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => this.run());
  }

  private run(): void {
    this.pending = false;
    const items = [...this.dirty];
    this.dirty.clear();
    for (const item of items) item.renderFrame();
    for (const fn of this.after) fn();
  }
}
