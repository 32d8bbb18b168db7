/** Plain-text tables for terminal listings (every listing also has --json). */
export function table(headers: string[], rows: (string | number | null)[][]): string {
  const cells = rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(headers), ...cells.map(line)].join('\n');
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** How a listing command ends: its JSON, the sentence for an empty list, the table. */
export interface Listing<T> {
  /** What `--json` prints (default: the list). */
  json?: unknown;
  /** How the JSON is written (default: json above; a listing of untrusted names passes inertJson). */
  jsonText?: (value: unknown) => string;
  empty: string;
  table(items: readonly T[]): string;
}

/**
 * The ending every listing shares: with `--json` the value as JSON, else the sentence for an
 * empty list, else the table. True when the table was printed (notes under it may follow).
 */
export function printListing<T>(out: (text: string) => void, asJson: boolean | undefined, items: readonly T[], how: Listing<T>): boolean {
  if (asJson) {
    out((how.jsonText ?? json)(how.json ?? items));
    return false;
  }
  if (!items.length) {
    out(how.empty);
    return false;
  }
  out(how.table(items));
  return true;
}
