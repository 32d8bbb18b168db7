import { constants } from 'node:fs';
import { applyBlocks, decodeText, EditError } from './edit-blocks.js';
import { MAX_EDIT_BYTES } from './edit-file.js';
import { openChecked, pathFact } from './file-access.js';
import { ToolRefusal, type ToolContext } from './tool.js';

/**
 * What a write_file or edit_file call would change, for an approval (issue 17): the file as it
 * is and as it would be, so a surface shows a diff instead of the arguments. Read-only: it opens
 * the real path the way the tools do (no link in the last part, no FIFO, no device). The tool
 * itself re-reads and re-checks when it runs; this is only what the person looks at.
 */
export type ChangePreview =
  | { kind: 'change'; path: string; real: string; before: string; after: string; created: boolean }
  /** The call cannot be previewed as text (it would fail, or the file is not text): the reason. */
  | { kind: 'unavailable'; path: string; reason: string };

export const PREVIEWED_TOOLS: readonly string[] = ['write_file', 'edit_file'];

export async function previewChange(tool: string, args: unknown, ctx: Pick<ToolContext, 'workspace' | 'paths'>): Promise<ChangePreview | null> {
  if (!PREVIEWED_TOOLS.includes(tool) || !args || typeof args !== 'object') return null;
  const a = args as { path?: unknown; content?: unknown; edits?: unknown };
  if (typeof a.path !== 'string') return null;
  const path = a.path;
  try {
    const fact = await pathFact(path, 'read', ctx);
    const current = await readCurrent(fact);
    if (tool === 'write_file') {
      if (typeof a.content !== 'string') return null;
      const before = current === null ? '' : decodeText(current, path).text;
      return { kind: 'change', path, real: fact.real, before, after: a.content.replace(/\r\n/g, '\n'), created: current === null };
    }
    if (current === null) return { kind: 'unavailable', path, reason: `${path} does not exist: this edit will fail` };
    if (!Array.isArray(a.edits)) return null;
    const decoded = decodeText(current, path);
    const { text } = applyBlocks(decoded, a.edits as { search: string; replace: string }[], path);
    return { kind: 'change', path, real: fact.real, before: decoded.text, after: text, created: false };
  } catch (e) {
    if (e instanceof EditError || e instanceof ToolRefusal) return { kind: 'unavailable', path, reason: e.message };
    return { kind: 'unavailable', path, reason: `cannot read it now (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
}

async function readCurrent(fact: import('./tool.js').PathFact): Promise<Buffer | null> {
  let opened;
  try {
    opened = await openChecked(fact, constants.O_RDONLY);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const { handle, info } = opened;
  try {
    if (!info.isFile()) throw new ToolRefusal(`${fact.requested} is not a regular file`);
    if (info.size > MAX_EDIT_BYTES) throw new ToolRefusal(`${fact.requested} is too large to show as a diff (${info.size} bytes)`);
    const buf = Buffer.alloc(info.size);
    let got = 0;
    while (got < info.size) {
      const { bytesRead } = await handle.read(buf, got, info.size - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
