import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { agentHome } from '../paths.js';
import { defineTool, type ToolContext } from './tool.js';

function noteFallback(ctx: ToolContext, answer: { slot: string; occupant: string; fallback: { reason: string; detail: string } | null }): void {
  if (answer.fallback) {
    ctx.emit({ type: 'slot_fallback', path: ctx.chain, slot: answer.slot, occupant: answer.occupant, reason: answer.fallback.reason, detail: answer.fallback.detail, outcome: 'builtin' });
  }
}

export const memorySearch = defineTool({
  name: 'memory_search',
  description: "Search this agent's memory (MEMORY.md, USER.md, people.md) for a word or phrase. Returns the matching entries.",
  input: z.object({ query: z.string().min(1).describe('text to look for (case-insensitive)'), limit: z.number().int().positive().max(100).optional() }),
  async execute({ query, limit }, ctx) {
    const answer = await ctx.slots.memorySearch(ctx.agent, query, { limit: limit ?? 20 }, () => ctx.builtins.memory.search(ctx.agent, query, { limit: limit ?? 20 }));
    noteFallback(ctx, answer);
    if (!answer.result.length) return { content: `no memory entries match "${query}"` };
    return { content: answer.result.map((h) => `[${h.file}] ${h.entry}`).join('\n\n') };
  },
});

export const remember = defineTool({
  name: 'remember',
  description: "Add a note to this agent's long-term memory (appended to MEMORY.md as a list item).",
  input: z.object({ text: z.string().min(1).max(4000) }),
  async execute({ text }, ctx) {
    const dir = agentHome(ctx.paths, ctx.agent);
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'MEMORY.md');
    const existing = await readFile(file, 'utf8').catch(() => '');
    const sep = existing === '' || existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    const item = `- ${text.trim().replace(/\n+/g, '\n  ')}\n`;
    await appendFile(file, sep + item);
    return { content: 'remembered' };
  },
});

export { noteFallback };
