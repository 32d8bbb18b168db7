import type { JsonValue } from './sdk-types.js';

/**
 * A deep copy of `value` when it is JSON data, else a TypeError naming what is not: a Map, a
 * Set, a class instance, NaN or Infinity, a function, undefined inside a list or object, a
 * symbol, a bigint, a cycle. (JSON.stringify would coerce most of these silently: a Map to {},
 * NaN to null, a function to nothing.)
 */
export function strictJson(value: unknown, what: string): JsonValue {
  const seen = new Set<object>();
  const walk = (v: unknown, at: string): JsonValue => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new TypeError(`${what}: ${at} is ${String(v)}, which is not JSON (numbers must be finite)`);
      return v;
    }
    if (typeof v !== 'object') throw new TypeError(`${what}: ${at} is a ${typeof v}, which is not JSON`);
    if (seen.has(v)) throw new TypeError(`${what}: ${at} refers back to itself, which JSON cannot hold`);
    seen.add(v);
    try {
      if (Array.isArray(v)) {
        return Array.from(v, (item, i) => {
          if (item === undefined) throw new TypeError(`${what}: ${at}[${i}] is undefined, which is not JSON (use null)`);
          return walk(item, `${at}[${i}]`);
        });
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`${what}: ${at} is a ${(v as object).constructor?.name ?? 'non-plain object'}, which is not JSON (use a plain object or a list)`);
      }
      const out: Record<string, JsonValue> = {};
      for (const [k, item] of Object.entries(v)) {
        if (item === undefined) throw new TypeError(`${what}: ${at}.${k} is undefined, which is not JSON (use null)`);
        out[k] = walk(item, `${at}.${k}`);
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value, 'the value');
}

const isObject = (v: JsonValue | null): v is { [key: string]: JsonValue } => v !== null && typeof v === 'object' && !Array.isArray(v);

/** ctx.result.set across serial output slots (as upstream): objects merge (shallow), anything else replaces. */
export function mergeResult(current: JsonValue | null, next: JsonValue): JsonValue {
  return isObject(current) && isObject(next) ? { ...current, ...next } : next;
}
