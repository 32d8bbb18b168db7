/**
 * Confinement (issue 12): `true` through the built-in sandbox confined (bubblewrap here) vs the
 * same built-in run as a plain child process, side by side, back to back in one warm process (the
 * "warm" rows). Target: under 10 ms added per command. The confined sandbox starts a shell ahead
 * of time for the next command's process-limit group (see the note), so its warm figure can come
 * out below the variant without a process limit, which has no such shell: the rows say which is
 * which. The cold rows (a fresh process's first command) are confinement-cold.ts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { detectConfinement, processLimitMethod } from '../../../src/core/sandbox/index.js';
import { allowListEnv } from '../../../src/core/secrets/scrub.js';
import { BuiltinSandbox } from '../../../src/core/slots/builtin/sandbox.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedDiff } from '../stats.js';
import { confinementColdFigures } from './confinement-cold.js';

export async function confinementSuite(ctx: SuiteContext): Promise<Figure[]> {
  const status = await detectConfinement();
  const backend = status.confined ? status.backend : 'none';
  if (!status.confined) {
    const note = `not measured: ${status.reason}`;
    return [figure('confinement', 'confinement.added', 'added by confinement per command', 'ms', null, { below: 10, note })];
  }
  const workspace = join(ctx.tmp, 'confinement', 'ws');
  const pepeHome = join(ctx.tmp, 'confinement', 'pepe');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(pepeHome, { recursive: true });
  const confined = new BuiltinSandbox(() => undefined, { pepeHome });
  const noLimit = new BuiltinSandbox(() => undefined, { pepeHome, maxProcesses: 0 });
  const plain = new BuiltinSandbox(() => undefined, { pepeHome, detect: async () => ({ confined: false, reason: 'the bench’s unconfined side' }) });
  const opts = { cwd: workspace, env: allowListEnv(process.env), timeoutMs: 10_000 };
  const timed = (sandbox: BuiltinSandbox) => async () => {
    const t = performance.now();
    const r = await sandbox.run('true', [], opts);
    if (r.exitStatus !== 0) throw new Error(`true failed: ${r.output}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 5; i++) {
    await timed(confined)();
    await timed(plain)();
    await timed(noLimit)();
  }
  const s = await interleave(ctx.quick ? 8 : 40, { confined: timed(confined), noLimit: timed(noLimit), plain: timed(plain) });
  const limit = processLimitMethod();
  const note =
    limit === 'cgroup'
      ? 'run as root: the process limit is a pids cgroup per command; moving a process into a cgroup waits for the kernel (about 10 ms), so a shell joins the next command\u2019s group ahead of time and starts it when it comes; as an ordinary user the limit is an rlimit and costs nothing'
      : undefined;
  return [
    figure('confinement', 'confinement.confined', `warm: \`true\` confined (${backend}: namespaces, mounts, process limit by ${limit}; the next command's shell started ahead)`, 'ms', s.confined),
    figure('confinement', 'confinement.plain', 'warm: `true` as a plain child process (the same built-in, unconfined)', 'ms', s.plain),
    figure('confinement', 'confinement.no_limit', 'warm: `true` confined without the process limit (no shell started ahead; for comparison only)', 'ms', s.noLimit),
    figure('confinement', 'confinement.added', 'warm: added by confinement per command (paired)', 'ms', pairedDiff(s.confined, s.plain), { below: 10, note }),
    ...(await confinementColdFigures(ctx)),
  ];
}
