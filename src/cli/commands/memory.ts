import type { Command } from 'commander';
import type { MemoryReindexResult, MemoryStatus } from '../../core/slots/memory-admin.js';
import { json, table } from '../format.js';
import type { CliContext } from '../context.js';

export function registerMemoryCommands(program: Command, ctx: CliContext): void {
  const memory = program.command('memory').description("agents' long-term memory: who answers searches, its index");

  memory
    .command('status')
    .description('per agent: the memory occupant, what it can do, the index size and when it was built')
    .option('--agent <name>', 'one agent only')
    .option('--json', 'machine-readable output')
    .action(async (opts: { agent?: string; json?: boolean }) => {
      const pepe = await ctx.pepe();
      const rows = await pepe.memoryStatus(opts.agent);
      if (opts.json) return ctx.out(json(rows));
      if (!rows.length) return ctx.out('no agents; add one with: pepe agent add NAME --model mock');
      ctx.out(table(['AGENT', 'OCCUPANT', 'MODES', 'REINDEX', 'ENTRIES', 'FILES'], rows.map((r) => [r.agent, r.occupant, r.can.modes.join(', '), r.can.reindex ? 'yes' : 'no', r.index ? r.index.entries : 'kept by the plugin', r.index ? r.index.files.length : null])));
      for (const r of rows) for (const line of details(r)) ctx.out(line);
    });

  memory
    .command('reindex')
    .description("rebuild each agent's memory index (the built-in re-reads the files; a plugin is asked to index(agent))")
    .option('--agent <name>', 'one agent only')
    .option('--json', 'machine-readable output')
    .action(async (opts: { agent?: string; json?: boolean }) => {
      const pepe = await ctx.pepe();
      const results: MemoryReindexResult[] = await pepe.memoryReindex(opts.agent);
      if (opts.json) ctx.out(json(results));
      else for (const r of results) ctx.out(`${r.agent}: ${r.reindexed ? 'reindexed' : 'not reindexed'} (${r.occupant}): ${r.detail}`);
      if (results.some((r) => !r.reindexed && r.occupant !== 'builtin' && /failed/.test(r.detail))) process.exitCode = 1;
    });
}

function details(r: MemoryStatus): string[] {
  const out: string[] = [];
  if (r.reason) out.push(`  ${r.agent}: ${r.configured} cannot answer, the built-in does: ${r.reason}`);
  for (const f of r.index?.files ?? []) out.push(`  ${r.agent}/${f.file}: ${f.bytes} bytes, ${f.entries ?? '?'} entries, modified ${f.modifiedAt}, indexed ${f.indexedAt ?? 'not yet'}`);
  return out;
}
