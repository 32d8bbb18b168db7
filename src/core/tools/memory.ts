import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from '../zod.js';
import { agentHome } from '../paths.js';
import { defineTool, slotEvents, untrustedBlock } from './tool.js';

/**
 * Remembered text keeps its origin: a note written by a run holding outside content is stored
 * with an HTML comment marker (invisible when the markdown is rendered) and comes back from
 * memory_search as outside content, so a web page cannot launder an instruction through memory.
 */
export const OUTSIDE_MARKER = '<!-- pepe:outside-content';
const MARKER_LINE = /<!-- pepe:outside-content(?: from="[^"]*")? -->\s?/g;

function marker(sources: readonly string[]): string {
  const from = sources.join(', ').replace(/[^\p{L}\p{N} ./:_,@+-]/gu, '').slice(0, 200);
  return `${OUTSIDE_MARKER} from="${from}" -->`;
}


export const memorySearch = defineTool({
  name: 'memory_search',
  description: "Search this agent's memory (MEMORY.md, USER.md, people.md) for a word or phrase. Returns the matching entries.",
  input: z.object({ query: z.string().check(z.minLength(1), z.describe('text to look for (case-insensitive)')), limit: z.optional(z.number().check(z.int(), z.positive(), z.lte(100))) }),
  async execute({ query, limit }, ctx) {
    const answer = await ctx.slots.memorySearch(ctx.agent, query, { limit: limit ?? 20 }, slotEvents(ctx));
    if (!answer.result.length) return { content: `no memory entries match "${query}"` };
    // A plugin occupant's results are outside content; so are entries remembered from outside content.
    const fromPlugin = answer.answeredBy !== 'builtin';
    const outside = answer.result.filter((h) => fromPlugin || h.entry.includes(OUTSIDE_MARKER));
    const own = answer.result.filter((h) => !outside.includes(h));
    const parts = own.map((h) => `[${h.file}] ${h.entry}`);
    if (outside.length > 0) {
      ctx.markOutsideContent(fromPlugin ? `memory_search (plugin ${answer.answeredBy})` : 'memory_search (remembered outside content)');
      const body = outside.map((h) => `[${h.file}] ${h.entry.replace(MARKER_LINE, '')}`).join('\n\n');
      parts.push(untrustedBlock(fromPlugin ? `memory plugin ${answer.answeredBy}` : 'memory remembered while reading outside content', body));
    }
    return { content: parts.join('\n\n'), ...(outside.length > 0 ? { untrusted: true } : {}) };
  },
});

export const remember = defineTool({
  name: 'remember',
  description: "Add a note to this agent's long-term memory (appended to MEMORY.md as a list item).",
  input: z.object({ text: z.string().check(z.minLength(1), z.maxLength(4000)) }),
  async execute({ text }, ctx) {
    const dir = agentHome(ctx.paths, ctx.agent);
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'MEMORY.md');
    const existing = await readFile(file, 'utf8').catch(() => '');
    const sep = existing === '' || existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    const tainted = ctx.outsideContent?.() ?? [];
    // A tainted note is one line with the marker first, so no part of it can become an entry without it.
    const item = tainted.length > 0 ? `- ${marker(tainted)} ${text.trim().replace(/\s*\n\s*/g, ' ')}\n` : `- ${text.trim().replace(/\n+/g, '\n  ')}\n`;
    await appendFile(file, sep + item);
    return { content: 'remembered' };
  },
});
