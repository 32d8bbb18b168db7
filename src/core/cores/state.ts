import type { CoreHost, StateScope } from './host.js';
import type { JsonValue, StateStore } from './sdk-types.js';

/** JSON-safe copy, or a readable error (state is persisted as JSON). */
export function jsonCopy(value: unknown, what: string): JsonValue {
  if (value === undefined) throw new TypeError(`${what}: undefined cannot be stored; use null`);
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    throw new TypeError(`${what}: the value is not JSON data (${e instanceof Error ? e.message : String(e)})`);
  }
  if (text === undefined) throw new TypeError(`${what}: the value is not JSON data`);
  return JSON.parse(text) as JsonValue;
}

/**
 * One scope's state for a phase run: loaded once from the host, changed in memory, and written
 * back through the host after every change (in order).
 */
export class ScopeState {
  private data: Record<string, JsonValue> = {};
  private loaded: Promise<void> | null = null;
  private writes: Promise<void> = Promise.resolve();
  private writeError: unknown = null;

  constructor(private readonly host: CoreHost, readonly scope: StateScope) {}

  load(): Promise<void> {
    this.loaded ??= this.host.loadState(this.scope).then((d) => {
      this.data = (jsonCopy(d ?? {}, `state.${this.scope}`) ?? {}) as Record<string, JsonValue>;
    });
    return this.loaded;
  }

  /** Waits for the writes so far; throws the first failure. */
  async flush(): Promise<void> {
    await this.writes;
    if (this.writeError) {
      const e = this.writeError;
      this.writeError = null;
      throw e;
    }
  }

  /**
   * The store a slot sees; `check` enforces capabilities and liveness before each call (with the
   * key, so a grant for one key, such as `state.session.write:counter`, covers that key only).
   */
  store(check: (write: boolean, key?: string) => void): StateStore {
    const label = (key: unknown) => {
      if (typeof key !== 'string' || !key) throw new TypeError(`state.${this.scope}: keys are non-empty strings`);
      return `state.${this.scope}["${key}"]`;
    };
    const write = () => {
      const snapshot = jsonCopy(this.data, `state.${this.scope}`) as Record<string, JsonValue>;
      this.writes = this.writes.then(() => this.host.persistState(this.scope, snapshot)).catch((e) => {
        this.writeError ??= e;
      });
    };
    return {
      get: <T = JsonValue>(key: string): T | undefined => {
        label(key);
        check(false, key);
        const v = this.data[key];
        return (v === undefined ? undefined : jsonCopy(v, label(key))) as T | undefined;
      },
      set: (key, value) => {
        label(key);
        check(true, key);
        this.data[key] = jsonCopy(value, label(key));
        write();
      },
      merge: (key, value) => {
        label(key);
        check(true, key);
        const what = label(key);
        const add = jsonCopy(value, what);
        if (add === null || typeof add !== 'object' || Array.isArray(add)) throw new TypeError(`${what}.merge: pass an object`);
        const current = this.data[key];
        if (current !== undefined && (current === null || typeof current !== 'object' || Array.isArray(current))) {
          throw new TypeError(`${what}.merge: the stored value is not an object`);
        }
        this.data[key] = { ...(current ?? {}), ...add };
        write();
      },
      append: (key, value) => {
        label(key);
        check(true, key);
        const what = label(key);
        const current = this.data[key];
        if (current !== undefined && !Array.isArray(current)) throw new TypeError(`${what}.append: the stored value is not a list`);
        this.data[key] = [...(current ?? []), jsonCopy(value, what)];
        write();
      },
      snapshot: () => {
        check(false);
        return jsonCopy(this.data, `state.${this.scope}`) as { [key: string]: JsonValue };
      },
    };
  }
}
