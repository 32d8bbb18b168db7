/**
 * Checkpoints named by the message that started their turn, and offered only for turns that
 * changed files (issue 26); the file as it was in a checkpoint, for the diff editor. Real git.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoints.js';
import { checkpointLabel, checkpointMessage, checkpointsThatChanged } from '../../../src/core/checkpoints/checkpoint-label.js';
import { turnCheckpointer } from '../../../src/core/checkpoints/turn-checkpoint.js';

describe('checkpoint names and the turns that changed files', () => {
  let root: string;
  let ws: string;
  let home: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'pepe-cpl-')));
    ws = join(root, 'ws');
    home = join(root, 'home');
    mkdirSync(ws);
    mkdirSync(home);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('the first line of the message, cut, without control or bidi characters', () => {
    assert.equal(checkpointMessage('\n  Fix the   rounding\nin prices.py'), 'Fix the rounding');
    assert.equal(checkpointMessage('a\u001b[31mred\u202e'), 'a[31mred');
    assert.equal(checkpointMessage('x'.repeat(200))?.length, 80);
    assert.equal(checkpointMessage('   \n '), undefined);
  });

  it('a turn checkpoint is named by its message; the turn that changed nothing is not offered', async () => {
    writeFileSync(join(ws, 'prices.py'), 'round(x)\n');
    const take = (turnId: string, message: string) => turnCheckpointer({ pepeHome: home, workspace: ws, agent: 'coder', sessionId: 's', turnId, message, chain: ['coder'], emit: () => undefined, env: {} })();
    await take('t1', 'Fix the rounding\nplease');
    writeFileSync(join(ws, 'prices.py'), 'round(x, 2)\n');
    await take('t2', 'Run the tests'); // a command that wrote nothing
    const cp = await Checkpoints.open(home, ws);
    const list = await cp.list();
    assert.deepEqual(list.map(checkpointLabel), ['before “Run the tests”', 'before “Fix the rounding”']);
    const offered = await checkpointsThatChanged(cp, list);
    assert.deepEqual(offered.map(checkpointLabel), ['before “Fix the rounding”']);
    assert.equal(await cp.fileAt(list[1]!.id, 'prices.py'), 'round(x)\n');
    assert.equal(await cp.fileAt(list[1]!.id, 'missing.py'), null);
  });

  it('an old checkpoint without a message keeps the agent name', () => {
    assert.equal(checkpointLabel({ id: 'a'.repeat(40), tree: 'b', createdAt: '2026-01-01T00:00:00Z', reason: 'turn', agent: 'dev' }), 'before a turn of dev');
  });
});
