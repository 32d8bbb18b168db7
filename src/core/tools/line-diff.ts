/**
 * A line diff (Myers' O(ND) algorithm) and its unified form, for approval prompts: a person
 * approves a change, not a JSON string. Written here because the `diff` package is not a direct
 * dependency; past MAX_EDIT_DISTANCE differing lines it gives up and shows "replace everything".
 */

export type DiffLine = { op: ' ' | '-' | '+'; text: string };

const MAX_EDIT_DISTANCE = 4000;

export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // Common head and tail first: most edits touch a few lines of a long file.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [...a.slice(0, head).map((text) => ({ op: ' ' as const, text })), ...middle, ...a.slice(a.length - tail).map((text) => ({ op: ' ' as const, text }))];
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function myers(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  if (max === 0) return [];
  if (n === 0 || m === 0 || max > 2 * MAX_EDIT_DISTANCE * 4) return replaceAll(a, b);
  const offset = max;
  let v: Int32Array = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE) && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return replaceAll(a, b);
  trace.push(v.slice());
  // Walk the trace back from (n, m).
  const out: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 2; d >= 0; d--) {
    v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) out.push({ op: ' ', text: a[--x]! }), y--;
    if (d > 0) {
      if (x === prevX) out.push({ op: '+', text: b[--y]! });
      else out.push({ op: '-', text: a[--x]! });
    }
  }
  return out.reverse();
}

function replaceAll(a: string[], b: string[]): DiffLine[] {
  return [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
}

/** The diff as unified hunks (`@@ -a,b +c,d @@`) with `context` lines around each change. */
export function unifiedDiff(before: string, after: string, options: { path?: string; context?: number } = {}): string {
  const lines = diffLines(before, after);
  const context = options.context ?? 3;
  const changed = lines.map((l, i) => (l.op === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';
  const out: string[] = [];
  if (options.path !== undefined) out.push(`--- a/${options.path}`, `+++ b/${options.path}`);
  // Old/new line numbers at every index.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 1;
  let nn = 1;
  for (const l of lines) {
    oldAt.push(o);
    newAt.push(nn);
    if (l.op !== '+') o++;
    if (l.op !== '-') nn++;
  }
  let i = 0;
  while (i < changed.length) {
    let start = Math.max(0, changed[i]! - context);
    let end = Math.min(lines.length, changed[i]! + context + 1);
    while (i + 1 < changed.length && changed[i + 1]! - context <= end) end = Math.min(lines.length, changed[++i]! + context + 1);
    i++;
    const hunk = lines.slice(start, end);
    const oldCount = hunk.filter((l) => l.op !== '+').length;
    const newCount = hunk.filter((l) => l.op !== '-').length;
    const oldStart = oldCount ? oldAt[start]! : oldAt[start]! - 1;
    const newStart = newCount ? newAt[start]! : newAt[start]! - 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const l of hunk) out.push(`${l.op}${l.text}`);
    start = end;
  }
  return out.join('\n');
}
