/**
 * The first confined command of a process (issue 27), measured cold: whole `pepe run` processes on
 * a scripted mock model, one whose turn runs `true` through the built-in sandbox and one whose turn
 * runs no command, interleaved; their paired difference is what the first command costs a fresh
 * process (classifying and judging it, loading the sandbox's code, the confinement probe from its
 * cache, the process limit, bubblewrap); checkpoints are off in both, so no git snapshot is counted.
 * Run as root, the process limit is a pids cgroup, and the shell the command runs through must
 * move into its group first, which waits for the kernel (an RCU grace period, 5–25 ms): that shell
 * is started when the call is resolved, before it is judged, and the kernel's wait is begun before
 * it is even spawned (a move of Pepe's own process into the group it is already in, on Node's
 * pool), so the wait overlaps spawning the shell and judging the call. Once in its group, the
 * shell becomes bubblewrap, which waits for the rest of its arguments (the command's policy,
 * environment and words) on its input: the command is one write. One output pipe (stderr joined
 * to stdout by the shell itself); leftover groups of gone processes are swept while the command
 * runs. Next to it, bubblewrap's own floor here: `bwrap` with a minimal set of namespaces and
 * mounts, spawned directly. Target: the first command within 15 ms of that floor.
 * The same runs also give Pepe's own CPU time for the first command (paired, the process's own,
 * bubblewrap's not in it): on a loaded machine the wall-clock rows carry the neighbours' load, the
 * CPU row does not.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectConfinement } from '../../../src/core/sandbox/index.js';
import { buildOnce } from '../build.js';
import { cpuTimedNode } from '../cpu-time.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedDiff, summarize } from '../stats.js';
import { ROOT } from './extension.js';

/** bubblewrap's own floor: a minimal set of namespaces and mounts around `true`. */
export const FLOOR_ARGS = ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', 'true'];

export async function confinementColdFigures(ctx: SuiteContext): Promise<Figure[]> {
  const status = await detectConfinement();
  if (!status.confined || status.backend !== 'bubblewrap') {
    return [figure('confinement', 'confinement.cold_added', 'first confined command of a fresh process, above bubblewrap’s own floor', 'ms', null, { below: 15, note: `not measured: ${status.confined ? status.backend : status.reason}` })];
  }
  buildOnce();
  const home = join(ctx.tmp, 'confinement-cold', 'home');
  const ws = join(ctx.tmp, 'confinement-cold', 'ws');
  mkdirSync(home, { recursive: true });
  mkdirSync(ws, { recursive: true });
  const script = (steps: unknown[]) => {
    const f = join(home, `script-${steps.length}.json`);
    writeFileSync(f, JSON.stringify({ steps }));
    return `mock:${f}`;
  };
  writeFileSync(
    join(home, 'config.json'),
    JSON.stringify({
      agents: {
        cmd: { model: script([{ tool_calls: [{ name: 'bash', arguments: { command: 'true' } }] }, { text: 'done' }]), tools: ['bash'], auto_approve: ['bash'] },
        none: { model: script([{ text: 'done' }]), tools: ['bash'] },
      },
    }),
  );
  const cli = join(ROOT, 'dist/cli.js');
  // No checkpoint before the command (a git snapshot of the workspace is its own bench row).
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home, PEPE_CHECKPOINTS: 'off' };
  const node = cpuTimedNode(ctx.tmp);
  const cpu: Record<string, number[]> = { cmd: [], none: [] };
  const timedRun = (agent: 'cmd' | 'none') => async () => {
    const r = node([cli, 'run', agent, 'go', '--no-input'], { cwd: ws, env });
    if (r.status !== 0 || !/done/.test(r.stdout)) throw new Error(`bench: pepe run ${agent} exited ${r.status}: ${r.stderr || r.stdout}`);
    cpu[agent]!.push(r.ms);
    return r.wallMs;
  };
  const floor = async () => {
    const t = performance.now();
    const r = spawnSync('bwrap', FLOOR_ARGS, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`bench: bwrap ${FLOOR_ARGS.join(' ')} exited ${r.status}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 2; i++) {
    await timedRun('cmd')();
    await timedRun('none')();
    await floor();
  }
  cpu.cmd = [];
  cpu.none = [];
  const s = await interleave(ctx.quick ? 4 : 15, { cmd: timedRun('cmd'), none: timedRun('none'), floor });
  const first = pairedDiff(s.cmd, s.none);
  const above = summarize(s.cmd.map((c, i) => c - s.none[i]! - s.floor[i]!));
  return [
    figure('confinement', 'confinement.cold_first', 'cold: first confined command of a fresh `pepe run` (paired: with the command − without)', 'ms', first),
    figure('confinement', 'confinement.cold_floor', 'cold rounds: bubblewrap’s own floor (`bwrap --unshare-all … true`, spawned directly)', 'ms', s.floor),
    figure('confinement', 'confinement.cold_added', 'cold: first confined command above bubblewrap’s floor (paired, wall clock)', 'ms', above, { below: 15, targetText: '≤ 15 ms' }),
    figure('confinement', 'confinement.cold_cpu', "cold: first confined command, Pepe's own CPU time for it (paired: with the command − without; bubblewrap's not counted)", 'ms', pairedDiff(cpu.cmd!, cpu.none!)),
  ];
}
