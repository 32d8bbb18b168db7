import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoints.js';
import { makeTempDir, removeDir } from '../permissions/helpers.js';
import { GIT_LAYOUTS, hostileProgram, ranLog, type Hostile } from './git-layouts.js';
import { recordAttacks } from './record.js';

/**
 * The checkpoint escape (issue 21): a confined, pre-approved command cannot do harm itself, but it
 * can leave a nested repository (or a submodule, a worktree `.git` file, a `commondir`
 * indirection…) whose configuration names a program. The next turn's checkpoint runs git on the
 * host over the workspace; git must never start that program, and the checkpoint must still be
 * taken. Each layout is tried twice: with the host git confined (the default) and with
 * confinement off, which shows that switching git's programs off holds by itself.
 *
 * Failed against bfd1589: for the nested repository, the submodule, the embedded gitlink, the
 * worktree file, the commondir indirection, config.worktree and the includes, `git add --all` ran
 * the planted core.fsmonitor as the user (the marker appeared and the key was copied into the
 * workspace as stolen-key).
 */
describe('attacks: the checkpoint escape through nested repositories', function () {
  recordAttacks('checkpoint escape', 'a checkpoint never starts a program a workspace names, and still succeeds');
  this.timeout(60_000);
  let dir: string;
  let ws: string;
  let home: string;
  let hostile: Hostile;
  beforeEach(() => {
    dir = makeTempDir('pepe-cpesc-');
    ws = join(dir, 'ws');
    home = join(dir, 'pepe-home');
    mkdirSync(ws);
    writeFileSync(join(ws, 'notes.txt'), 'notes\n');
    hostile = hostileProgram(dir, ws);
  });
  afterEach(() => removeDir(dir));

  for (const confinement of ['sandbox', 'off'] as const) {
    for (const layout of GIT_LAYOUTS) {
      it(`${layout.name} (host git confinement ${confinement})`, async () => {
        layout.plant(ws, hostile.program);
        const cp = await Checkpoints.open(home, ws, { confinement });
        const first = await cp.create({ reason: 'turn' });
        writeFileSync(join(ws, 'notes.txt'), 'changed\n');
        const second = await cp.create({ reason: 'turn' });
        const changes = await cp.changes(first.id);
        const diff = await cp.diff(first.id);
        await cp.diff(first.id, second.id);
        await cp.restore(first.id);
        assert.equal(ranLog(hostile), '', 'the planted program ran on the host');
        assert.ok(!existsSync(join(ws, 'stolen-key')), 'the secret was copied into the workspace');
        assert.ok(changes.some((c) => c.path === 'notes.txt'), JSON.stringify(changes));
        assert.match(diff, /\+changed/);
        assert.equal((await cp.list()).length, 3);
      });
    }
  }

  it('a nested repository is left out of the checkpoint and the checkpoint says so', async () => {
    GIT_LAYOUTS[0]!.plant(ws, hostile.program);
    const cp = await Checkpoints.open(home, ws);
    const c = await cp.create({ reason: 'turn' });
    assert.deepEqual(c.skipped, ['vendor/lib']);
    assert.deepEqual((await cp.list())[0]!.skipped, ['vendor/lib']);
    assert.equal(ranLog(hostile), '');
  });
});
