import { constants } from 'node:fs';
import { withEditorFeedback } from './editor-feedback.js';
import * as z from '../zod.js';
import { applyBlocks, decodeText, EditError, encodeText } from './edit-blocks.js';
import { openChecked, pathFact, recheck } from './file-access.js';
import { failure, withDeadline } from './files.js';
import { defineTool, ToolRefusal } from './tool.js';
import { lazySchema } from '../lazy-schema.js';

/** edit_file reads the whole file to match blocks: larger files are refused (write_file replaces them whole). */
export const MAX_EDIT_BYTES = 4 * 1024 * 1024;
/** Blocks in one call at most. */
export const MAX_EDIT_BLOCKS = 100;

export const EditFileInput = lazySchema(() =>
  z.object({
    path: z.string().check(z.minLength(1)),
    edits: z.array(z.strictObject({ search: z.string().check(z.minLength(1)), replace: z.string() })).check(z.minLength(1), z.maxLength(MAX_EDIT_BLOCKS)),
  }),
);

/**
 * Targeted edits (issue 17): exact search/replace blocks, applied in order, all or nothing. A
 * block that matches zero or several times stops the call with a message saying which and why,
 * and the file is left as it was. The file is read and written through one descriptor opened on
 * the real path the barrier judged (file-access.ts), so a link swapped in between is refused.
 */
export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Edit an existing text file (path relative to the workspace) with exact search/replace blocks, applied in order. ' +
    'Each search text must match the current file exactly once, whitespace and indentation included; include enough ' +
    'surrounding lines to make it unique. If any block does not match, nothing is changed. Line ends (CRLF or LF) are ' +
    'kept as the file has them. Prefer this to write_file for changes to existing files. Always asks the user first.',
  input: EditFileInput,
  async resolve({ path }, ctx) {
    return { paths: [await pathFact(path, 'write', ctx)] };
  },
  async execute({ path, edits }, ctx) {
    // VS Code's errors and warnings for the file after the write are added to the result (issue 25).
    return withEditorFeedback(ctx.editorFeedback, { requested: path, real: ctx.facts?.paths?.[0]?.real }, ctx.signal, async () => {
      try {
        return await withDeadline(ctx, async (live) => {
          const fact = await recheck(path, 'write', ctx);
          let opened;
          try {
            opened = await openChecked(fact, constants.O_RDWR);
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new EditError(`${path} does not exist; edit_file changes existing files (use write_file to create one). Nothing was changed.`);
            if ((e as NodeJS.ErrnoException).code === 'EISDIR') throw new EditError(`${path} is a folder, not a file. Nothing was changed.`);
            throw e;
          }
          const { handle, info } = opened;
          try {
            if (!info.isFile()) throw new ToolRefusal(`${path} is not a regular file`);
            if (info.nlink > 1) throw new ToolRefusal(`${path} has ${info.nlink} hard links: writing it would change the same file under its other names too`);
            if (info.size > MAX_EDIT_BYTES) throw new EditError(`${path} is ${info.size} bytes, more than edit_file handles (${MAX_EDIT_BYTES}); nothing was changed.`);
            const bytes = await readAll(handle, info.size);
            const decoded = decodeText(bytes, path);
            const { text, applied } = applyBlocks(decoded, edits, path);
            const out = encodeText(decoded, text);
            live();
            // A surface with open documents (VS Code) writes through them, after the same checks.
            if (!out.equals(bytes) && ctx.writeFile) await ctx.writeFile({ requested: path, real: fact.real, created: false, after: out });
            else if (!out.equals(bytes)) {
              await handle.truncate(0);
              for (let done = 0; done < out.length; ) done += (await handle.write(out, done, out.length - done, done)).bytesWritten;
            }
            const where = fact.viaLink || !fact.inside ? ` (really ${fact.real})` : '';
            const lines = applied.map((a) => (a.fromLine === a.toLine ? `${a.fromLine}` : `${a.fromLine}-${a.toLine}`)).join(', ');
            const eol = decoded.eol === '\r\n' ? '; CRLF line ends kept' : '';
            const count = applied.length === 1 ? '1 block' : `${applied.length} blocks`;
            return { content: `edited ${path}${where}: ${count} applied (now at line${applied.length > 1 || lines.includes('-') ? 's' : ''} ${lines})${eol}` };
          } finally {
            await handle.close().catch(() => undefined);
          }
        });
      } catch (e) {
        if (e instanceof EditError) return { content: `edit_file: ${e.message}`, isError: true };
        return failure(e, 'edit', path);
      }
    });
  },
});

/** The whole file through the checked descriptor (it may have grown since the stat: read to the end, capped). */
async function readAll(handle: import('node:fs/promises').FileHandle, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.alloc(Math.max(64 * 1024, size + 1 - total));
    const { bytesRead } = await handle.read(buf, 0, buf.length, total);
    if (bytesRead === 0) break;
    chunks.push(buf.subarray(0, bytesRead));
    total += bytesRead;
    if (total > MAX_EDIT_BYTES) throw new EditError(`the file grew past ${MAX_EDIT_BYTES} bytes while it was read; nothing was changed.`);
  }
  return Buffer.concat(chunks);
}
