import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { insideWorkspace, resolveInWorkspace } from './paths.js';
import { defineTool, untrustedBlock } from './tool.js';

const MAX_READ_CHARS = 200_000;

export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file (path relative to the workspace). Long files are cut; use offset to read on.',
  input: z.object({ path: z.string().min(1), offset: z.number().int().nonnegative().optional(), limit: z.number().int().positive().optional() }),
  async execute({ path, offset, limit }, ctx) {
    const file = resolveInWorkspace(ctx.workspace, path);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      return { content: `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, isError: true };
    }
    const start = offset ?? 0;
    const size = Math.min(limit ?? MAX_READ_CHARS, MAX_READ_CHARS);
    let body = text.slice(start, start + size);
    if (start + size < text.length) body += `\n[… ${text.length - start - size} more characters; read on with offset ${start + size}]`;
    if (!insideWorkspace(ctx.workspace, file)) {
      // Spec 5.3: a file from outside the workspace is outside content.
      ctx.markOutsideContent(`read_file ${file}`);
      return { content: untrustedBlock(`file ${file}`, body), untrusted: true };
    }
    return { content: body };
  },
});

export const listDir = defineTool({
  name: 'list_dir',
  description: 'List a directory (path relative to the workspace; default the workspace itself).',
  input: z.object({ path: z.string().default('.') }),
  async execute({ path }, ctx) {
    const dir = resolveInWorkspace(ctx.workspace, path);
    try {
      const entries = await readdir(dir, { withFileTypes: true });
      const lines = entries
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
      return { content: lines.length ? lines.join('\n') : '(empty)' };
    } catch (e) {
      return { content: `cannot list ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, isError: true };
    }
  },
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create or overwrite a text file (path relative to the workspace). Always asks the user first.',
  input: z.object({ path: z.string().min(1), content: z.string() }),
  async execute({ path, content }, ctx) {
    const file = resolveInWorkspace(ctx.workspace, path);
    const existed = await stat(file).then(() => true, () => false);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
    return { content: `${existed ? 'overwrote' : 'created'} ${path} (${content.length} characters)` };
  },
});
