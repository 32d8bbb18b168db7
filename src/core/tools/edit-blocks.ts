/**
 * The text side of edit_file (issue 17), with no file system in it: decoding a file's bytes as
 * text the way an editor would (UTF-8 only, a BOM kept, CRLF kept), and applying exact
 * search/replace blocks all or nothing. The tool (edit-file.ts) and the approval preview
 * (change-preview.ts) both use it, so what a person is shown is what gets written.
 */

export interface EditBlock {
  search: string;
  replace: string;
}

/** A file's text as edit_file handles it: line ends as "\n", with what to restore on the way out. */
export interface DecodedText {
  text: string;
  bom: boolean;
  /** The file's line end when all its line ends are alike; "mixed" files are matched as they are. */
  eol: '\n' | '\r\n' | 'mixed';
}

/** Thrown for a file edit_file cannot treat as text, or blocks that do not apply: nothing is written. */
export class EditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EditError';
  }
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The bytes as UTF-8 text, or an EditError that says why not (binary, another encoding). */
export function decodeText(bytes: Buffer, path: string): DecodedText {
  const bom = bytes.subarray(0, 3).equals(BOM);
  const body = bom ? bytes.subarray(3) : bytes;
  if (body.subarray(0, 8000).includes(0)) {
    throw new EditError(`${path} looks like a binary file (it holds NUL bytes): edit_file only edits UTF-8 text; nothing was changed`);
  }
  let raw: string;
  try {
    raw = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    const at = firstInvalidUtf8(body);
    throw new EditError(
      `${path} is not valid UTF-8 (first bad byte at offset ${at + (bom ? 3 : 0)}): edit_file only edits UTF-8 text, so it would not re-encode it; nothing was changed. Convert the file to UTF-8 first, or use write_file to replace it whole.`,
    );
  }
  const crlf = (raw.match(/\r\n/g) ?? []).length;
  const lf = (raw.match(/\n/g) ?? []).length;
  if (crlf > 0 && crlf === lf) return { text: raw.replace(/\r\n/g, '\n'), bom, eol: '\r\n' };
  return { text: raw, bom, eol: crlf > 0 ? 'mixed' : '\n' };
}

/** The text back to bytes with the file's own BOM and line ends. */
export function encodeText(decoded: DecodedText, text: string): Buffer {
  const body = Buffer.from(decoded.eol === '\r\n' ? text.replace(/\n/g, '\r\n') : text, 'utf8');
  return decoded.bom ? Buffer.concat([BOM, body]) : body;
}

/** Where one applied block landed in the new text (1-based lines), for the tool's answer. */
export interface AppliedBlock {
  fromLine: number;
  toLine: number;
}

/**
 * Applies every block in order to `text` (each to the result of the ones before), or throws an
 * EditError naming the first block that does not match exactly once. Blocks from a model written
 * with CRLF are matched against a CRLF file's text all the same.
 */
export function applyBlocks(decoded: DecodedText, blocks: readonly EditBlock[], path: string): { text: string; applied: AppliedBlock[] } {
  let text = decoded.text;
  const applied: AppliedBlock[] = [];
  const norm = (s: string) => (decoded.eol === '\r\n' ? s.replace(/\r\n/g, '\n') : s);
  blocks.forEach((block, i) => {
    const which = blocks.length > 1 ? `block ${i + 1} of ${blocks.length}` : 'the block';
    const search = norm(block.search);
    const replace = norm(block.replace);
    if (search.length === 0) throw new EditError(`${which}: the search text is empty; give the exact lines to replace (use write_file to create a file). Nothing was changed.`);
    const at = occurrences(text, search);
    if (at.length === 0) throw new EditError(`${which}: ${notFound(text, search, path)} Nothing was changed.`);
    if (at.length > 1) {
      const lines = at.slice(0, 5).map((o) => lineOf(text, o));
      throw new EditError(
        `${which}: the search text matches ${at.length} times in ${path} (at lines ${lines.join(', ')}${at.length > 5 ? ', …' : ''}); include more surrounding lines so it matches exactly once. Nothing was changed.`,
      );
    }
    const start = at[0]!;
    text = text.slice(0, start) + replace + text.slice(start + search.length);
    const fromLine = lineOf(text, start);
    applied.push({ fromLine, toLine: fromLine + Math.max(0, replace.split('\n').length - 1) });
  });
  return { text, applied };
}

/** Every start offset of `needle` in `hay`, overlapping ones included (an ambiguous block is ambiguous). */
function occurrences(hay: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1 && found.length < 1000; i = hay.indexOf(needle, i + 1)) found.push(i);
  return found;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Why an exact match failed, with the likeliest cause: whitespace, or which line first differs. */
function notFound(text: string, search: string, path: string): string {
  const squash = (s: string) => s.split('\n').map((l) => l.trim()).join('\n');
  const base = `the search text was not found in ${path}; it must match the file exactly, whitespace and indentation included (read_file shows the current text).`;
  if (squash(text).includes(squash(search))) return `${base} It does match when leading and trailing spaces on each line are ignored: copy the indentation exactly.`;
  const first = search.split('\n').find((l) => l.trim().length > 0);
  if (first !== undefined && !text.includes(first)) return `${base} Its first line (${JSON.stringify(first.slice(0, 120))}) is not in the file at all.`;
  return base;
}

/** Offset of the first byte that is not valid UTF-8 (after a fatal decode failed). */
function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) if (i + k >= bytes.length || (bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return Math.max(0, bytes.length - 1);
}
