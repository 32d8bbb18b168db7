import { relative } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { stderr } from '../stdio.js';
import { loadCliExtras } from '../core-loader.js';

/**
 * `pepe init [DIR]` scaffolds an agent core (spec 7); `pepe init --check [DIR]` validates one and
 * exits 2 listing every problem as `file:line:column: message`; without DIR, `--check` checks the
 * core of every configured agent.
 */
export function registerInitCommand(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('create an agent core (pipelines.yaml, base_input, base_output, an example slot), or --check one (or, with no folder, every agent\'s core)')
    .argument('[dir]', 'the core folder (default: the current folder; with --check: every configured agent\'s core)')
    .option('--check', 'validate the core instead: exit 0 when valid, 2 with every problem listed')
    .action(async (dir: string | undefined, opts: { check?: boolean }) => {
      const cwd = process.cwd();
      const { checkCoreReport, checkAgentCores, formatProblem, scaffoldCore } = await loadCliExtras();
      if (opts.check) {
        let checks: { label: string; dir: string; problems: ReturnType<typeof checkCoreReport>['problems']; notes: ReturnType<typeof checkCoreReport>['notes'] }[];
        if (dir !== undefined) {
          checks = [{ label: dir, dir: cwd, ...checkCoreReport(dir) }];
        } else {
          const pepe = await ctx.pepe();
          checks = checkAgentCores(pepe.config.agents ?? {}, pepe.paths.home).map((c) => ({ label: `agent ${c.agent} (${c.dir})`, dir: c.dir, problems: c.problems, notes: c.notes }));
          if (!checks.length) {
            ctx.out('no configured agent has a core ("core": "<folder>"); pass a folder to check one: pepe init --check DIR');
            process.exitCode = 0;
            return;
          }
        }
        let total = 0;
        for (const c of checks) {
          for (const n of c.notes) ctx.out(`note: ${formatProblem(n, dir !== undefined ? cwd : c.dir)}`);
          if (!c.problems.length) {
            ctx.out(`${c.label}: the agent core is valid`);
            continue;
          }
          total += c.problems.length;
          for (const p of c.problems) stderr(`${formatProblem(p, dir !== undefined ? cwd : c.dir)}\n`);
          stderr(`pepe: ${c.problems.length} problem${c.problems.length === 1 ? '' : 's'} in the agent core at ${c.label}\n`);
        }
        process.exitCode = total ? 2 : 0;
        return;
      }
      const target = dir ?? '.';
      const written = scaffoldCore(target);
      for (const file of written) ctx.out(`created ${relative(cwd, file) || file}`);
      ctx.out(`agent core ready; point an agent at it ("core": "${target}") and check it with: pepe init --check ${target}`);
    });
}
