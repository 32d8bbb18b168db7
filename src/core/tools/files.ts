import { constants } from 'node:fs';
import { withEditorFeedback } from './editor-feedback.js';
import { lstat, readdir } from 'node:fs/promises';
import * as z from '../zod.js';
import { forRead, makeParents, openChecked, pathFact, READ_FLAGS, recheck, WRITE_FLAGS } from './file-access.js';
import { defineTool, ToolRefusal, untrustedBlock, type PathFact, type ToolContext, type ToolOutcome } from './tool.js';
import { compareCodeUnits } from '../code-unit-order.js';

/** What one read_file call returns by default, and at most (a longer `limit` is cut to this). */
export const DEFAULT_READ_BYTES = 200_000;
export const MAX_READ_BYTES = 1024 * 1024;
/** Entries list_dir shows at most. */
export const MAX_LIST_ENTRIES = 1000;
/** Every file operation ends by then, whatever the file system does (a hung network mount). */
export const FILE_DEADLINE_MS = 10_000;

class DeadlineError extends Error {}

/**
 * Runs `work` with a deadline and the turn's cancellation; a late result is dropped. `work` calls
 * `live()` before it changes anything, so a write given up on does not land afterwards.
 */
export async function withDeadline<T>(ctx: ToolContext, work: (live: () => void) => Promise<T>): Promise<T> {
  if (ctx.signal.aborted) throw new DeadlineError('cancelled');
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let over: DeadlineError | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject((over = new DeadlineError())), FILE_DEADLINE_MS);
    onAbort = () => reject((over = new DeadlineError('cancelled')));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  const live = () => {
    if (over) throw over;
  };
  try {
    return await Promise.race([work(live), stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
  }
}

export function failure(e: unknown, what: string, path: string): ToolOutcome {
  if (e instanceof ToolRefusal) return { content: `${what} refused: ${e.message}`, isError: true };
  if (e instanceof DeadlineError) return { content: e.message === 'cancelled' ? `${what} ${path}: cancelled` : `${what} ${path}: gave up after ${FILE_DEADLINE_MS / 1000} s`, isError: true };
  return { content: `cannot ${what} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, isError: true };
}

/** Outside content (spec 5.3): a file or listing from outside the workspace is marked and wrapped. */
function fromOutside(fact: PathFact, what: string, body: string, ctx: ToolContext): ToolOutcome {
  if (fact.inside) return { content: body };
  ctx.markOutsideContent(`${what} ${fact.real}`);
  return { content: untrustedBlock(`file ${fact.real}`, body), untrusted: true };
}

/** The end of `buf[0, end)` moved back so it does not cut a UTF-8 character in two. */
function utf8Boundary(buf: Buffer, end: number): number {
  let cut = end;
  for (let back = 0; back < 4 && cut > 0 && (buf[cut - 1]! & 0xc0) === 0x80; back++) cut--;
  if (cut > 0 && buf[cut - 1]! >= 0xc0) {
    const lead = buf[cut - 1]!;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (end - (cut - 1) < need) return cut - 1;
  }
  return end;
}

export const readFileTool = defineTool({
  name: 'read_file',
  description: `Read a text file (path relative to the workspace). At most ${DEFAULT_READ_BYTES} bytes per call by default; offset and limit are in bytes, and a cut file says where to read on.`,
  input: z.object({ path: z.string().check(z.minLength(1)), offset: z.optional(z.number().check(z.int(), z.nonnegative())), limit: z.optional(z.number().check(z.int(), z.positive())) }),
  async resolve({ path }, ctx) {
    return { paths: [await pathFact(path, 'read', ctx)] };
  },
  async execute({ path, offset, limit }, ctx) {
    try {
      return await withDeadline(ctx, async () => {
        const fact = await forRead(path, ctx);
        const { handle, info } = await openChecked(fact, READ_FLAGS);
        try {
          if (info.isDirectory()) return { content: `${path} is a folder; use list_dir`, isError: true };
          const start = offset ?? 0;
          const want = Math.min(limit ?? DEFAULT_READ_BYTES, MAX_READ_BYTES);
          const buf = Buffer.alloc(want);
          let got = 0;
          while (got < want) {
            const { bytesRead } = await handle.read(buf, got, want - got, start + got);
            if (bytesRead === 0) break;
            got += bytesRead;
          }
          const end = got === want ? utf8Boundary(buf, got) : got;
          const chunk = buf.subarray(0, end);
          if (chunk.subarray(0, 8000).includes(0)) return { content: `${path} looks like a binary file (${info.size} bytes); not shown`, isError: true };
          let body = chunk.toString('utf8');
          const next = start + end;
          const more = next < start + got || (await handle.read(Buffer.alloc(1), 0, 1, next)).bytesRead > 0;
          if (more) body += `\n[… cut here${info.size > next ? `: ${info.size - next} more bytes` : ''}; read on with offset ${next}]`;
          return fromOutside(fact, 'read_file', body, ctx);
        } finally {
          await handle.close().catch(() => undefined);
        }
      });
    } catch (e) {
      return failure(e, 'read', path);
    }
  },
});

export const listDir = defineTool({
  name: 'list_dir',
  description: 'List a directory (path relative to the workspace; default the workspace itself).',
  input: z.object({ path: z._default(z.string(), '.') }),
  async resolve({ path }, ctx) {
    return { paths: [await pathFact(path, 'read', ctx)] };
  },
  async execute({ path }, ctx) {
    try {
      return await withDeadline(ctx, async () => {
        const fact = await forRead(path, ctx);
        const { handle, info } = await openChecked(fact, READ_FLAGS | (constants.O_DIRECTORY ?? 0));
        try {
          if (!info.isDirectory()) return { content: `${path} is not a folder; use read_file`, isError: true };
          // Linux: list the very folder that was opened and checked, not whatever the path names now.
          const which = process.platform === 'linux' ? `/proc/self/fd/${handle.fd}` : fact.real;
          const entries = (await readdir(which, { withFileTypes: true })).sort((a, b) => compareCodeUnits(a.name, b.name));
          const lines = entries.slice(0, MAX_LIST_ENTRIES).map((e) => (e.isDirectory() ? `${e.name}/` : e.isSymbolicLink() ? `${e.name}@` : e.name));
          if (entries.length > MAX_LIST_ENTRIES) lines.push(`[… ${entries.length - MAX_LIST_ENTRIES} more entries not shown]`);
          return fromOutside(fact, 'list_dir', lines.length ? lines.join('\n') : '(empty)', ctx);
        } finally {
          await handle.close().catch(() => undefined);
        }
      });
    } catch (e) {
      return failure(e, 'list', path);
    }
  },
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create or overwrite a text file (path relative to the workspace). Always asks the user first.',
  input: z.object({ path: z.string().check(z.minLength(1)), content: z.string() }),
  async resolve({ path }, ctx) {
    return { paths: [await pathFact(path, 'write', ctx)] };
  },
  async execute({ path, content }, ctx) {
    // VS Code's errors and warnings for the file after the write are added to the result (issue 25).
    return withEditorFeedback(ctx.editorFeedback, { requested: path, real: ctx.facts?.paths?.[0]?.real }, ctx.signal, async () => {
      try {
        return await withDeadline(ctx, async (live) => {
          const fact = await recheck(path, 'write', ctx);
          const existed = await lstat(fact.real).then(() => true, () => false);
          live();
          await makeParents(fact);
          const { handle, info } = await openChecked(fact, WRITE_FLAGS, 0o666);
          try {
            if (!info.isFile()) throw new ToolRefusal(`${path} is not a regular file`);
            if (info.nlink > 1) throw new ToolRefusal(`${path} has ${info.nlink} hard links: writing it would change the same file under its other names too`);
            const bytes = Buffer.from(content, 'utf8');
            live();
            // A surface with open documents (VS Code) writes through them, after the same checks.
            if (ctx.writeFile) await ctx.writeFile({ requested: path, real: fact.real, created: !existed, after: bytes });
            else {
              await handle.truncate(0);
              for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done, bytes.length - done, done)).bytesWritten;
            }
          } finally {
            await handle.close().catch(() => undefined);
          }
          const where = fact.viaLink || !fact.inside ? ` (really ${fact.real})` : '';
          return { content: `${existed ? 'overwrote' : 'created'} ${path}${where} (${content.length} characters)` };
        });
      } catch (e) {
        return failure(e, 'write', path);
      }
    });
  },
});
