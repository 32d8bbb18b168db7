import { relative } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { loadCliCore } from '../core-loader.js';

/**
 * `pepe init [DIR]` scaffolds an agent core (spec 7); `pepe init --check [DIR]` validates one and
 * exits 2 listing every problem as `file:line:column: message`.
 */
export function registerInitCommand(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('create an agent core (pipelines.yaml, base_input, base_output, an example slot), or --check one')
    .argument('[dir]', 'the core folder', '.')
    .option('--check', 'validate the core instead: exit 0 when valid, 2 with every problem listed')
    .action(async (dir: string, opts: { check?: boolean }) => {
      const cwd = process.cwd();
      const { checkCore, formatProblem, scaffoldCore } = await loadCliCore();
      if (opts.check) {
        const problems = checkCore(dir);
        if (!problems.length) {
          ctx.out(`${dir}: the agent core is valid`);
          process.exitCode = 0;
          return;
        }
        for (const p of problems) process.stderr.write(`${formatProblem(p, cwd)}\n`);
        process.stderr.write(`pepe: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the agent core at ${dir}\n`);
        process.exitCode = 2;
        return;
      }
      const written = scaffoldCore(dir);
      for (const file of written) ctx.out(`created ${relative(cwd, file) || file}`);
      ctx.out(`agent core ready; point an agent at it ("core": "${dir}") and check it with: pepe init --check ${dir}`);
    });
}
