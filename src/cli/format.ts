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
