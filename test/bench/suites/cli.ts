/**
 * CLI start-up (issues 11, 27): whole processes, each interleaved with a bare `node -e 0` so the
 * ratios compare runs taken side by side. The figure is the process's CPU time (user + system,
 * every thread, as the process reports it at exit through a preload every variant gets, `node -e 0`
 * too): on a machine shared with other work, wall time measures the neighbours as much as Pepe.
 * `pepe --help` loads only the entry bundle; `pepe slot list`, a one-turn `pepe run` and
 * `pepe chat`'s first answer on the mock model load the core as well. Measures the bundles in dist/
 * (built here first, so the figures are of the current sources).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { buildOnce } from '../build.js';
import { cpuTimedNode } from '../cpu-time.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedRatio } from '../stats.js';
import { ROOT } from './extension.js';

/**
 * The CLI as one bundle, the way it was built before the split (same sources, same esbuild
 * options, no lazy loading, no code cache): the "before" of the comparison.
 */
async function singleBundle(dir: string): Promise<string> {
  // @ts-expect-error: a plain JavaScript build script, without type declarations
  const { sdkTypesText } = await import('../../../scripts/sdk-types-text.mjs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"type":"commonjs"}\n');
  const file = join(dir, 'cli.js');
  await build({
    stdin: { contents: "import { main } from './src/cli/main.ts';\nmain(process.argv.slice(2)).then((c) => { process.exitCode = c; });\n", resolveDir: ROOT, loader: 'ts' },
    bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: file, logLevel: 'error', plugins: [sdkTypesText],
  });
  return file;
}

export async function cliSuite(ctx: SuiteContext): Promise<Figure[]> {
  buildOnce();
  const home = join(ctx.tmp, 'cli');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ agents: { a: { model: 'mock' } } }));
  const cli = join(ROOT, 'dist/cli.js');
  const single = await singleBundle(join(ctx.tmp, 'cli-single'));
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home };
  const node = cpuTimedNode(ctx.tmp);
  const timed = (args: string[], expect: RegExp, input?: string) => async () => {
    // One retry: on a shared checkout a concurrent rebuild can leave dist/ half-written for a moment.
    for (let attempt = 1; ; attempt++) {
      const r = node(args, { cwd: home, env, input });
      if (r.status === 0 && expect.test(r.stdout) && r.ms > 0) return r.ms;
      if (attempt === 2) throw new Error(`bench: node ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
      await new Promise((done) => setTimeout(done, 500));
    }
  };
  const variants = {
    node: timed(['-e', '0'], /^$/),
    help: timed([cli, '--help'], /Usage: pepe/),
    slotList: timed([cli, 'slot', 'list'], /^SLOT/),
    run: timed([cli, 'run', 'a', 'hello', '--provider', 'fake'], /You said: hello/),
    // The first prompt of a chat: typed (piped) while the core loads, answered, then end of input.
    chat: timed([cli, 'chat', 'a', '--provider', 'fake'], /You said: hello/, 'hello\n'),
    helpSingle: timed([single, '--help'], /Usage: pepe/),
    runSingle: timed([single, 'run', 'a', 'hello', '--provider', 'fake'], /You said: hello/),
  };
  // Warm the OS file cache (and any compile cache) before measuring.
  for (const v of Object.values(variants)) for (let i = 0; i < 3; i++) await v();
  const s = await interleave(ctx.quick ? 8 : 30, variants);
  return [
    figure('cli', 'cli.node', 'bare `node -e 0` (the reference), CPU time', 'ms', s.node),
    figure('cli', 'cli.help', '`pepe --help`, CPU time', 'ms', s.help),
    figure('cli', 'cli.slot_list', '`pepe slot list`, CPU time', 'ms', s.slotList),
    figure('cli', 'cli.run', 'one-turn `pepe run` on the mock model, CPU time', 'ms', s.run),
    figure('cli', 'cli.chat', "`pepe chat` on the mock model, to its first answer (one prompt piped in), CPU time", 'ms', s.chat),
    figure('cli', 'cli.help_ratio', '`pepe --help` ÷ `node -e 0` (paired)', '×', pairedRatio(s.help, s.node), { below: 1.3, targetText: '≤ 1.3×' }),
    figure('cli', 'cli.slot_list_ratio', '`pepe slot list` ÷ `node -e 0` (paired)', '×', pairedRatio(s.slotList, s.node), { below: 1.5, targetText: '≤ 1.5×' }),
    figure('cli', 'cli.run_ratio', 'mock `pepe run` ÷ `node -e 0` (paired)', '×', pairedRatio(s.run, s.node), { below: 1.6, targetText: '≤ 1.6×' }),
    figure('cli', 'cli.chat_ratio', "`pepe chat`'s first answer ÷ `node -e 0` (paired)", '×', pairedRatio(s.chat, s.node), { summary: true, note: 'issue 27 asks for this row, paired with `node -e 0`, and sets it no number' }),
    figure('cli', 'cli.help_single_ratio', 'before the split: `pepe --help` as one bundle ÷ `node -e 0` (paired)', '×', pairedRatio(s.helpSingle, s.node)),
    figure('cli', 'cli.run_single_ratio', 'before the split: mock `pepe run` as one bundle ÷ `node -e 0` (paired)', '×', pairedRatio(s.runSingle, s.node)),
  ];
}
