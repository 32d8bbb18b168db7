/**
 * Confinement (issues 12, 27), warm: `true` through the built-in sandbox in one warm process,
 * confined (bubblewrap here) and as a plain child process, next to bubblewrap spawned directly
 * (its own floor), interleaved in rotating order. The cold rows (a fresh process's first command)
 * are confinement-cold.ts.
 *
 * Run as root, the confined sandbox keeps bubblewrap waiting in the next command's process-limit
 * group (a shell that joined the group, then became bubblewrap reading the rest of its arguments
 * from its input), started when a command is done. So that no variant is served by what the
 * others' time let it prepare, every sample follows the same idle pause (PAUSE_MS, no more than a
 * model's answer takes between two commands), and each variant has its own sandbox: "shell ready"
 * is a command after that pause; "back to back" is a command started the moment the previous one
 * ended, before its shell could be ready (the worst case, an agent's two commands in one message).
 * Targets: under 10 ms added over the plain child process (issue 12); within 15 ms of
 * bubblewrap's floor, both ways (issue 27).
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { detectConfinement, processLimitMethod } from '../../../src/core/sandbox/index.js';
import { allowListEnv } from '../../../src/core/secrets/scrub.js';
import { BuiltinSandbox } from '../../../src/core/slots/builtin/sandbox.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedDiff } from '../stats.js';
import { confinementColdFigures, FLOOR_ARGS } from './confinement-cold.js';
import { gitScanFigures } from './git-scan.js';

const PAUSE_MS = 100;

export async function confinementSuite(ctx: SuiteContext): Promise<Figure[]> {
  const status = await detectConfinement();
  const backend = status.confined ? status.backend : 'none';
  if (!status.confined) {
    const note = `not measured: ${status.reason}`;
    return [figure('confinement', 'confinement.added', 'added by confinement per command', 'ms', null, { below: 10, note }), ...(await gitScanFigures(ctx))];
  }
  const workspace = join(ctx.tmp, 'confinement', 'ws');
  const pepeHome = join(ctx.tmp, 'confinement', 'pepe');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(pepeHome, { recursive: true });
  const ready = new BuiltinSandbox(() => undefined, { pepeHome });
  const backToBack = new BuiltinSandbox(() => undefined, { pepeHome });
  const noLimit = new BuiltinSandbox(() => undefined, { pepeHome, maxProcesses: 0 });
  const plain = new BuiltinSandbox(() => undefined, { pepeHome, detect: async () => ({ confined: false, reason: 'the bench’s unconfined side' }) });
  const opts = { cwd: workspace, env: allowListEnv(process.env), timeoutMs: 10_000 };
  const pause = () => new Promise((done) => setTimeout(done, PAUSE_MS));
  const once = async (sandbox: BuiltinSandbox) => {
    const t = performance.now();
    const r = await sandbox.run('true', [], opts);
    if (r.exitStatus !== 0) throw new Error(`true failed: ${r.output}`);
    return performance.now() - t;
  };
  const afterPause = (sandbox: BuiltinSandbox) => async () => {
    await pause();
    return once(sandbox);
  };
  const floor = async () => {
    await pause();
    const t = performance.now();
    await new Promise<void>((done, fail) => {
      const child = spawn('bwrap', FLOOR_ARGS, { stdio: 'ignore' });
      child.on('error', fail);
      child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`bench: bwrap ${FLOOR_ARGS.join(' ')} exited ${code}`))));
    });
    return performance.now() - t;
  };
  const variants = {
    ready: afterPause(ready),
    backToBack: async () => {
      await pause();
      await once(backToBack);
      return once(backToBack);
    },
    noLimit: afterPause(noLimit),
    plain: afterPause(plain),
    floor,
  };
  for (let i = 0; i < 3; i++) for (const v of Object.values(variants)) await v();
  const s = await interleave(ctx.quick ? 8 : 40, variants);
  for (const sandbox of [ready, backToBack, noLimit]) sandbox.dispose();
  const limit = processLimitMethod();
  const how =
    limit === 'cgroup'
      ? 'run as root: the process limit is a pids cgroup per command; moving a process into a cgroup waits for the kernel (an RCU grace period, 5–25 ms), so a shell joins the next command’s group when a command is done and becomes bubblewrap waiting for that command’s policy, environment and words on its input; when none is waiting (back to back), the one started for it has the kernel’s wait begun before its spawn'
      : 'as an ordinary user the process limit is an rlimit set by the shell inside, and no shell is started ahead';
  return [
    figure('confinement', 'confinement.confined', `warm, shell ready: \`true\` confined (${backend}: namespaces, mounts, process limit by ${limit}), ${PAUSE_MS} ms after the previous command`, 'ms', s.ready, { note: how }),
    figure('confinement', 'confinement.back_to_back', 'warm, back to back: the same, started the moment the previous command ended', 'ms', s.backToBack),
    figure('confinement', 'confinement.no_limit', 'warm: `true` confined without the process limit (no shell ahead; for comparison only)', 'ms', s.noLimit),
    figure('confinement', 'confinement.plain', 'warm: `true` as a plain child process (the same built-in, unconfined)', 'ms', s.plain),
    figure('confinement', 'confinement.warm_floor', 'warm rounds: bubblewrap’s own floor (`bwrap --unshare-all … true`, spawned directly)', 'ms', s.floor),
    figure('confinement', 'confinement.added', 'warm, shell ready: added by confinement per command (paired: confined − plain)', 'ms', pairedDiff(s.ready, s.plain), { below: 10, targetText: '< 10 ms' }),
    figure('confinement', 'confinement.warm_added', 'warm, shell ready: above bubblewrap’s floor (paired)', 'ms', pairedDiff(s.ready, s.floor), { below: 15, targetText: '≤ 15 ms' }),
    figure('confinement', 'confinement.back_to_back_added', 'warm, back to back: above bubblewrap’s floor (paired)', 'ms', pairedDiff(s.backToBack, s.floor), { below: 15, targetText: '≤ 15 ms' }),
    ...(await confinementColdFigures(ctx)),
    ...(await gitScanFigures(ctx)),
  ];
}
