import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { json, table } from '../format.js';
import type { CliContext } from '../context.js';
import { loadCliExtras } from '../core-loader.js';

export function registerUsageCommand(program: Command, ctx: CliContext): void {
  program
    .command('usage')
    .description('spend per project, its cap and its tier (normal, low_compute, critical, dead)')
    .option('--project <name>', 'one project')
    .option('--session <id>', "one conversation: its tokens and cost, its context against the model's window, its budget and its project")
    .option('--json', 'machine-readable output')
    .action(async (opts: { project?: string; session?: string; json?: boolean }) => {
      const pepe = await ctx.pepe();
      if (opts.session) {
        const info = pepe.sessionList().find((s) => s.id === opts.session);
        if (!info) throw new UsageError(`no session ${opts.session}; see pepe sessions list`);
        const { statusLine } = await loadCliExtras();
        const figures = pepe.conversationFigures(info.agent, info.id);
        return ctx.out(opts.json ? json({ agent: info.agent, sessionId: info.id, ...figures }) : `${info.agent} ${info.id}: ${statusLine(figures)}`);
      }
      const known = Object.keys(pepe.config.projects ?? {});
      const seen = new Set(pepe.usageRecords().map((r) => r.project).filter((p): p is string => !!p));
      const projects = opts.project ? [opts.project] : [...new Set([...known, ...seen])].sort();
      if (opts.project && !known.includes(opts.project) && !seen.has(opts.project)) throw new UsageError(`unknown project "${opts.project}"`);
      const rows = projects.map((p) => pepe.projectUsage(p));
      const total = pepe.usageSpend(null);
      if (opts.json) return ctx.out(json(opts.project ? rows[0] : { projects: rows, totalUsd: total.spendUsd, calls: total.calls }));
      if (!rows.length) return ctx.out(`no projects; ${total.calls} model call(s), $${total.spendUsd.toFixed(4)} in all`);
      ctx.out(table(['PROJECT', 'SPEND', 'CAP', 'TIER', 'CALLS'], rows.map((r) => [r.project, `$${r.spendUsd.toFixed(4)}`, r.capUsd === null ? null : `$${r.capUsd}`, r.tier, r.calls])));
    });
}
