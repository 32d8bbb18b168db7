/** Sandbox (issue 8): `true` through the sandbox slot (built-in occupant) vs execa directly. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { createPepe } from '../../../src/core/pepe.js';
import { scrubEnv } from '../../../src/core/secrets/scrub.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedRatio } from '../stats.js';

export async function sandboxSuite(ctx: SuiteContext): Promise<Figure[]> {
  const home = join(ctx.tmp, 'sandbox');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), '{}');
  const pepe = await createPepe({ home, env: process.env, workspace: home });
  const opts = { cwd: home, env: scrubEnv(process.env, pepe.config), timeoutMs: 10_000 };
  const viaSandbox = async () => {
    const t = performance.now();
    const a = await pepe['slots'].sandboxRun(null, 'true', [], opts, undefined, () => pepe['builtins'].runSandbox(null, 'true', [], opts));
    if (a.result.exitStatus !== 0) throw new Error('true failed in the sandbox');
    return performance.now() - t;
  };
  const direct = async () => {
    const t = performance.now();
    const r = await execa('true', [], { cwd: home, reject: false });
    if (r.exitCode !== 0) throw new Error('true failed');
    return performance.now() - t;
  };
  for (let i = 0; i < 5; i++) {
    await viaSandbox();
    await direct();
  }
  const s = await interleave(ctx.quick ? 8 : 30, { sandbox: viaSandbox, direct });
  pepe.dispose();
  return [
    figure('sandbox', 'sandbox.slot', '`true` through the sandbox slot (built-in: confined by bubblewrap, allow-listed env, capped output)', 'ms', s.sandbox),
    figure('sandbox', 'sandbox.execa', '`true` with execa directly', 'ms', s.direct),
    figure('sandbox', 'sandbox.ratio', 'sandbox ÷ execa (paired)', '×', pairedRatio(s.sandbox, s.direct)),
  ];
}
