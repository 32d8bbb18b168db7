/**
 * A file change said in words (issue 26): "edit src/prices.py: 1 change, +3 −1". Used by the
 * approval notification (from the real preview: the file before and after) and by the chat's
 * card (from the call's own arguments, before the file is read). Pure: no Node imports, so the
 * chat webview uses the same words.
 */

export interface LineCounts {
  /** Separate places in the file that change. */
  changes: number;
  added: number;
  removed: number;
}

/** Above this many line pairs, the middle of a change is counted as all removed and all added. */
const MAX_CELLS = 4_000_000;

/** Lines added and removed from `before` to `after`, and in how many separate places. */
export function countLineChanges(before: string, after: string): LineCounts {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (!midA.length && !midB.length) return { changes: 0, added: 0, removed: 0 };
  if (!midA.length || !midB.length || midA.length * midB.length > MAX_CELLS) return { changes: 1, added: midB.length, removed: midA.length };
  return lcsCounts(midA, midB);
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** A longest-common-subsequence walk: kept lines split the change into its places. */
function lcsCounts(a: string[], b: string[]): LineCounts {
  const n = a.length;
  const m = b.length;
  const table = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) table[at(i, j)] = a[i] === b[j] ? table[at(i + 1, j + 1)]! + 1 : Math.max(table[at(i + 1, j)]!, table[at(i, j + 1)]!);
  let i = 0;
  let j = 0;
  let added = 0;
  let removed = 0;
  let changes = 0;
  let inChange = false;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      i++;
      j++;
      inChange = false;
      continue;
    }
    if (!inChange) changes++;
    inChange = true;
    if (j < m && (i === n || table[at(i, j + 1)]! >= table[at(i + 1, j)]!)) {
      added++;
      j++;
    } else {
      removed++;
      i++;
    }
  }
  return { changes, added, removed };
}

/** "1 change, +3 −1" (the minus is U+2212, as diff tools print it). */
export function countsText(c: LineCounts): string {
  if (!c.changes) return 'no change';
  return `${c.changes} change${c.changes === 1 ? '' : 's'}, +${c.added} \u2212${c.removed}`;
}

/** "edit src/prices.py: 1 change, +3 −1", "create notes.md: 12 lines", "write notes.md: 1 change, +2 −2". */
export function changeSentence(verb: 'edit' | 'create' | 'write', path: string, counts: LineCounts): string {
  if (verb === 'create') return `create ${path}: ${counts.added} line${counts.added === 1 ? '' : 's'}`;
  return `${verb} ${path}: ${countsText(counts)}`;
}

/** From the real preview: the file as it is and as it would be. */
export function describeChange(path: string, before: string, after: string, created: boolean, tool: string): string {
  const counts = countLineChanges(before, after);
  return changeSentence(created ? 'create' : tool === 'write_file' ? 'write' : 'edit', path, counts);
}

/**
 * From a write_file / edit_file call's arguments alone (what the chat card knows): each
 * search/replace block is one change. Null for other tools or arguments of another shape.
 */
export function describeCallArgs(tool: string, args: unknown): string | null {
  if (typeof args !== 'object' || args === null) return null;
  const a = args as { path?: unknown; content?: unknown; edits?: unknown };
  if (typeof a.path !== 'string' || !a.path) return null;
  if (tool === 'write_file' && typeof a.content === 'string') {
    const lines = splitLines(a.content).length;
    return `write ${a.path}: ${lines} line${lines === 1 ? '' : 's'}`;
  }
  if (tool === 'edit_file' && Array.isArray(a.edits)) {
    const blocks = a.edits.filter((e): e is { search: string; replace: string } => typeof e === 'object' && e !== null && typeof (e as { search?: unknown }).search === 'string' && typeof (e as { replace?: unknown }).replace === 'string');
    if (blocks.length !== a.edits.length) return null;
    let added = 0;
    let removed = 0;
    for (const b of blocks) {
      const c = countLineChanges(b.search, b.replace);
      added += c.added;
      removed += c.removed;
    }
    return changeSentence('edit', a.path, { changes: blocks.length, added, removed });
  }
  return null;
}

/** An edit_file call's blocks as diff lines ("- old", "+ new"), for the card, instead of JSON. */
export function blocksAsDiff(args: unknown): string | null {
  const edits = (args as { edits?: unknown } | null)?.edits;
  if (!Array.isArray(edits)) return null;
  const out: string[] = [];
  for (const [n, e] of edits.entries()) {
    if (typeof e !== 'object' || e === null || typeof (e as { search?: unknown }).search !== 'string' || typeof (e as { replace?: unknown }).replace !== 'string') return null;
    const { search, replace } = e as { search: string; replace: string };
    if (edits.length > 1) out.push(`@@ change ${n + 1} of ${edits.length}`);
    for (const line of splitLines(search)) out.push(`- ${line}`);
    for (const line of splitLines(replace)) out.push(`+ ${line}`);
  }
  return out.join('\n');
}
