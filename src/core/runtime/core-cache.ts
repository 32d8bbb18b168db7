import { coreStamp, loadCore, type LoadedCore } from '../cores/index.js';

/**
 * Loaded agent cores, reloaded only when their files change: loading runs the modules' top-level
 * code, which must not happen on every turn.
 */
export class CoreCache {
  private cache = new Map<string, { stamp: string; core: LoadedCore }>();

  get(dir: string, trusted: boolean): LoadedCore {
    const key = `${dir}\u0000${trusted}`;
    const stamp = coreStamp(dir);
    const hit = this.cache.get(key);
    if (hit && hit.stamp === stamp) return hit.core;
    const core = loadCore(dir, { trusted });
    this.cache.set(key, { stamp, core });
    return core;
  }
}
