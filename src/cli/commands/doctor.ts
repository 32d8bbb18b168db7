import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { json } from '../format.js';
import type { CliContext } from '../context.js';

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description('check slots, plugins, config keys, routes and models; exit 1 when something is wrong')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      let findings;
      try {
        const pepe = await ctx.pepe();
        findings = await pepe.doctor();
      } catch (e) {
        if (!(e instanceof ConfigError) || !opts.json) throw e;
        ctx.out(json({ healthy: false, findings: e.problems.map((message) => ({ level: 'problem', area: 'config', message: `${e.file}: ${message}` })) }));
        process.exitCode = 2;
        return;
      }
      const healthy = !findings.some((f) => f.level === 'problem');
      if (opts.json) ctx.out(json({ healthy, findings }));
      else {
        if (!findings.some((f) => f.level !== 'info')) ctx.out('all good: every slot occupant can answer, every plugin loads, the config is clean');
        for (const f of findings) ctx.out(`${f.level} [${f.area}] ${f.message}`);
      }
      process.exitCode = healthy ? 0 : 1;
    });
}
