import type { Command } from 'commander';
import { json } from '../format.js';
import type { CliContext } from '../context.js';

export function registerHeartbeatCommand(program: Command, ctx: CliContext): void {
  program
    .command('heartbeat')
    .description('agent heartbeats: turns an agent takes on its own, on a schedule')
    .command('run')
    .description('fire every due pulse once (run it from cron); nobody is asked for approvals')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const pepe = await ctx.pepe({ prompter: null, workspace: process.cwd() });
      const outcomes = await pepe.heartbeatRunDue();
      if (opts.json) return ctx.out(json(outcomes));
      if (!outcomes.length) return ctx.out('no pulse due');
      for (const o of outcomes) {
        if (o.outcome === 'delivered') ctx.out(`${o.agent}: ${o.content} (session ${o.sessionId})`);
        else if (o.outcome === 'quiet') ctx.out(`${o.agent}: HEARTBEAT_OK`);
        else if (o.outcome === 'vetoed') ctx.out(`${o.agent}: skipped (vetoed by ${o.by})`);
        else ctx.out(`${o.agent}: failed: ${o.error}`);
      }
      if (outcomes.some((o) => o.outcome === 'failed')) process.exitCode = 1;
    });
}
