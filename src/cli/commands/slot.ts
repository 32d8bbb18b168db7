import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { json, table } from '../format.js';
import { scopeOptions, type CliContext } from '../context.js';

export function registerSlotCommands(program: Command, ctx: CliContext): void {
  const slot = program.command('slot').description('exclusive slots: who answers memory, web search, the sandbox, …');

  slot
    .command('list')
    .description('every slot, its occupant, its default and its status')
    .option('--agent <name>', 'as resolved for one agent')
    .option('--project <name>', 'as resolved for one project')
    .option('--json', 'machine-readable output')
    .action(async (opts: { agent?: string; project?: string; json?: boolean }) => {
      const pepe = await ctx.pepe();
      const rows = await pepe.slotList({ agent: opts.agent, project: opts.project });
      if (opts.json) return ctx.out(json(rows));
      ctx.out(
        table(
          ['SLOT', 'OCCUPANT', 'CONFIGURED', 'SCOPE', 'STATUS', 'FALLBACKS'],
          rows.map((r) => [r.slot, r.occupant, r.configured, r.scope, r.status === 'default-instead' ? 'using the default instead' : r.status, r.fallbacks.count ? `${r.fallbacks.count}${r.fallbacks.recovered ? ' (recovered)' : ''}` : 0]),
        ),
      );
      for (const r of rows) {
        if (r.uses) ctx.out(`  ${r.slot} (built-in): ${r.uses}`);
        if (r.status === 'unconfined') ctx.out(`  ${r.slot}: unconfined (every command is asked first): ${r.reason}`);
        else if (r.reason) ctx.out(`  ${r.slot}: using the default instead: ${r.reason}`);
        else if (r.fallbacks.count) ctx.out(`  ${r.slot}: ${r.fallbacks.count} fallback(s), last: ${r.fallbacks.lastReason}${r.fallbacks.recovered ? `; recovered (answered cleanly at ${r.fallbacks.recoveredAt})` : ''}`);
      }
    });

  scopeOptions(slot.command('set').description('pin a slot to an installed plugin, by its name(), or to "default" (the built-in)').argument('<slot>').argument('<plugin>')).action(
    async (slotName: string, plugin: string, opts: { agent?: string; project?: string }) => {
      const pepe = await ctx.pepe();
      await pepe.slotSet(slotName, plugin, opts);
      ctx.out(`${slotName} → ${plugin} (${opts.agent ? `agent ${opts.agent}` : opts.project ? `project ${opts.project}` : 'install-wide'})`);
    },
  );

  scopeOptions(slot.command('clear').description('return a slot to the built-in').argument('<slot>')).action(
    async (slotName: string, opts: { agent?: string; project?: string }) => {
      const pepe = await ctx.pepe();
      const previous = await pepe.slotClear(slotName, opts);
      ctx.out(previous ? `${slotName}: cleared (was ${previous})` : `${slotName}: nothing was set at that scope`);
    },
  );

  slot
    .command('test')
    .description('call a slot exactly as the runtime would and show who answered')
    .argument('<slot>')
    .argument('[command...]', 'for sandbox: the program and its arguments, after --')
    .option('--agent <name>', 'resolve for this agent')
    .option('--project <name>', 'resolve for this project')
    .option('--query <text>', 'for memory and web_search')
    .option('--json', 'print the answer as JSON (the default)')
    .action(async (slotName: string, command: string[], opts: { agent?: string; project?: string; query?: string }) => {
      if (command.length && slotName !== 'sandbox') throw new UsageError(`slot test ${slotName} takes no command; only sandbox does`);
      const pepe = await ctx.pepe();
      const answer = await pepe.slotTest(slotName, { agent: opts.agent, project: opts.project, query: opts.query, command });
      ctx.out(json({ ...answer, durationMs: Math.round(answer.durationMs * 100) / 100 }));
      if (answer.refused) process.exitCode = 1;
    });
}
