/**
 * Checkpoints (issue 17): a snapshot of a 10,000-file workspace in the shadow repository, cold
 * (the first one) and warm (the next turn's, after a few files changed), and a restore that
 * brings back a deleted file and reverts the changed ones. The warm checkpoint is measured with
 * the host git confined (the default) and, interleaved, disarmed only (unconfined: the figure
 * before confinement).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoints.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';

const FILES = 10_000;

/** 100 folders of 100 small source files, and an ignored build folder that must not be read. */
function makeWorkspace(dir: string): void {
  writeFileSync(join(dir, '.gitignore'), 'build/\n');
  for (let d = 0; d < FILES / 100; d++) {
    const folder = join(dir, 'src', `mod${d}`);
    mkdirSync(folder, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(folder, `file${f}.ts`), `export const value${d}_${f} = ${d * 100 + f};\n// ${'x'.repeat(200)}\n`);
  }
  mkdirSync(join(dir, 'build'));
  for (let f = 0; f < 500; f++) writeFileSync(join(dir, 'build', `out${f}.js`), 'built\n');
}

export async function checkpointsSuite(ctx: SuiteContext): Promise<Figure[]> {
  const ws = join(ctx.tmp, 'checkpoint-ws');
  const home = join(ctx.tmp, 'checkpoint-home');
  mkdirSync(ws, { recursive: true });
  mkdirSync(home, { recursive: true });
  makeWorkspace(ws);
  const cp = await Checkpoints.open(home, ws, { confinement: 'sandbox' });
  const unconfined = await Checkpoints.open(home, ws, { confinement: 'off' });

  let t = performance.now();
  const first = await cp.create({ reason: 'manual' });
  const cold = performance.now() - t;

  const rounds = ctx.quick ? 3 : 10;
  const warm: number[] = [];
  const warmOff: number[] = [];
  const restore: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // A turn's worth of change: a few files edited, one created, one deleted.
    for (let k = 0; k < 5; k++) writeFileSync(join(ws, 'src', `mod${(r * 7 + k) % 100}`, `file${k}.ts`), `export const changed = ${r};\n`);
    writeFileSync(join(ws, 'src', `new${r}.ts`), 'new\n');
    rmSync(join(ws, 'src', 'mod50', 'file50.ts'), { force: true });
    t = performance.now();
    await cp.create({ reason: 'turn', agent: 'bench', turnId: String(r) });
    warm.push(performance.now() - t);
    // The same change again, checkpointed without confinement (side by side, same state).
    writeFileSync(join(ws, 'src', `newoff${r}.ts`), 'new\n');
    t = performance.now();
    await unconfined.create({ reason: 'turn', agent: 'bench', turnId: `off${r}` });
    warmOff.push(performance.now() - t);

    t = performance.now();
    await cp.restore(first.id);
    restore.push(performance.now() - t);
    if (readFileSync(join(ws, 'src', 'mod50', 'file50.ts'), 'utf8') !== `export const value50_50 = 5050;\n// ${'x'.repeat(200)}\n`) throw new Error('the restore did not bring back the deleted file');
  }
  rmSync(ws, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  return [
    figure('checkpoints', 'checkpoints.cold', `first checkpoint of a ${FILES.toLocaleString('en')}-file workspace (shadow git repository)`, 'ms', [cold], { note: 'one sample: hashes every file once' }),
    figure('checkpoints', 'checkpoints.warm', `checkpoint of the ${FILES.toLocaleString('en')}-file workspace after a turn changed 7 files (git confined)`, 'ms', warm, { below: 1000, targetText: '< 1 s' }),
    figure('checkpoints', 'checkpoints.warm_unconfined', 'the same, git disarmed but not confined (PEPE_CHECKPOINTS=unconfined)', 'ms', warmOff),
    figure('checkpoints', 'checkpoints.confinement_cost', 'confined warm checkpoint over the unconfined one (pairs measured side by side)', '×', warm.map((w, i) => w / warmOff[i]!), { below: 2, targetText: '< 2×' }),
    figure('checkpoints', 'checkpoints.restore', 'restore it to the first checkpoint (saves the present first; brings back a deleted file)', 'ms', restore),
  ];
}
