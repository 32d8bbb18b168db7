import { constants } from 'node:fs';
import { relative } from 'node:path';
import * as z from './zod.js';
import { openChecked, pathFact } from './tools/file-access.js';
import type { PepePaths } from './paths.js';
import { lazySchema } from './lazy-schema.js';

/**
 * Context a person attaches to a turn (issue 17): a file, a folder listing, the editor's
 * selection, the workspace's problems, terminal output. The surface gathers it; the turn adds it
 * to the user's message, so the transcript records exactly what the model was given. Validated
 * here (a trust boundary: it comes from a webview), each one capped in size.
 */

import { ATTACHMENT_KINDS, MAX_ATTACHMENT_CHARS, MAX_ATTACHMENTS } from './context-attachment-limits.js';
export { ATTACHMENT_KINDS, MAX_ATTACHMENT_CHARS, MAX_ATTACHMENTS };

export const TurnAttachment = lazySchema(() =>
  z.strictObject({
    kind: z.enum(ATTACHMENT_KINDS),
    /** What the person sees on the chip: a workspace-relative path, "selection in app.ts:10-20", "Problems". */
    label: z.string().check(z.minLength(1), z.maxLength(500)),
    content: z.string().check(z.maxLength(MAX_ATTACHMENT_CHARS)),
  }),
);
export type TurnAttachment = z.infer<typeof TurnAttachment>;
export const TurnAttachments = lazySchema(() => z.array(TurnAttachment).check(z.maxLength(MAX_ATTACHMENTS)));

/** Characters that would let an attachment's label or content close its own block early. */
const inert = (s: string) => s.replace(/<\/?attached-context/gi, (m) => m.replace('<', '‹'));

/** The user's text with the attachments after it, each in a block that names its kind and label. */
export function withAttachments(text: string, attachments: readonly TurnAttachment[] | undefined): string {
  if (!attachments?.length) return text;
  const parsed = TurnAttachments.parse(attachments);
  const blocks = parsed.map((a) => `<attached-context kind="${a.kind}" label="${inert(a.label).replace(/"/g, "'")}">\n${inert(a.content)}\n</attached-context>`);
  return `${text}\n\n${blocks.join('\n\n')}`;
}

/**
 * A workspace file as an attachment (for @file and drag-and-drop): read on its real path the way
 * read_file reads (no FIFO, no device, no kernel file), only inside the workspace, UTF-8 text,
 * cut at MAX_ATTACHMENT_CHARS with a note.
 */
export async function fileAttachment(path: string, ctx: { workspace: string; paths: Pick<PepePaths, 'home'> }): Promise<TurnAttachment> {
  const fact = await pathFact(path, 'read', { workspace: ctx.workspace, paths: ctx.paths as PepePaths });
  if (!fact.inside) throw new Error(`${path} is outside the workspace (${fact.real}); only workspace files can be attached`);
  const { handle, info } = await openChecked(fact, constants.O_RDONLY);
  try {
    if (!info.isFile()) throw new Error(`${path} is not a file`);
    const want = Math.min(info.size, MAX_ATTACHMENT_CHARS * 4);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await handle.read(buf, got, want - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    if (buf.subarray(0, Math.min(got, 8000)).includes(0)) throw new Error(`${path} looks like a binary file; not attached`);
    let content = buf.subarray(0, got).toString('utf8');
    if (content.length > MAX_ATTACHMENT_CHARS || info.size > got) content = `${content.slice(0, MAX_ATTACHMENT_CHARS - 200)}\n[… cut: the file is ${info.size} bytes; read_file reads on]`;
    return { kind: 'file', label: relative(ctx.workspace, fact.real) || path, content };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
