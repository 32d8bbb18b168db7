import { coreStamp, loadCore, type LoadedCore } from '../cores/index.js';
import type { CoreIsolation } from '../cores/core-process.js';

/**
 * Loaded agent cores, reloaded only when their files change: loading runs the modules' top-level
 * code, which must not happen on every turn.
 */
export class CoreCache {
  private cache = new Map<string, { stamp: string; core: LoadedCore }>();

  /** `isolation`: where the modules run out of process (spec 3.3); undefined runs them in this process. */
  constructor(private readonly isolation?: () => CoreIsolation | undefined) {}

  get(dir: string, trusted: boolean): LoadedCore {
    const key = `${dir}\u0000${trusted}`;
    const stamp = coreStamp(dir);
    const hit = this.cache.get(key);
    if (hit && hit.stamp === stamp) return hit.core;
    hit?.core.dispose?.();
    const core = loadCore(dir, { trusted, isolate: this.isolation?.() });
    this.cache.set(key, { stamp, core });
    return core;
  }

  /** Ends the processes of every loaded core. */
  dispose(): void {
    for (const { core } of this.cache.values()) core.dispose?.();
    this.cache.clear();
  }
}
