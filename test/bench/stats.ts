/** Order statistics and interleaved sampling for the bench (TESTING.md: medians, side by side). */

export interface Summary {
  n: number;
  median: number;
  p10: number;
  p90: number;
  min: number;
  max: number;
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, median: quantile(s, 0.5), p10: quantile(s, 0.1), p90: quantile(s, 0.9), min: s[0] ?? NaN, max: s.at(-1) ?? NaN };
}

/**
 * Runs every variant `rounds` times, interleaved (A B C A B C …, the order rotated each round so
 * no variant always follows the same one), so machine noise hits all of them alike. Each call
 * returns its own measurement in ms (so a variant can time a batch and divide).
 */
export async function interleave<K extends string>(rounds: number, variants: Record<K, () => Promise<number>>): Promise<Record<K, number[]>> {
  const keys = Object.keys(variants) as K[];
  const out = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[(i + r) % keys.length]!;
      out[k].push(await variants[k]());
    }
  }
  return out;
}

/** Times `fn` once, in ms. */
export async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Median of pairwise ratios a[i]/b[i] (samples taken side by side in the same round). */
export function pairedRatio(a: number[], b: number[]): Summary {
  const n = Math.min(a.length, b.length);
  return summarize(Array.from({ length: n }, (_, i) => a[i]! / b[i]!));
}

/** Median of pairwise differences a[i]-b[i]. */
export function pairedDiff(a: number[], b: number[], scale = 1): Summary {
  const n = Math.min(a.length, b.length);
  return summarize(Array.from({ length: n }, (_, i) => (a[i]! - b[i]!) / scale));
}
