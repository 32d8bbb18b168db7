import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot, readAhead } from '../../../src/core/interop/text-files.js';

describe('reading the files people bring: read-ahead and the project root (issue 27)', () => {
  it('readAhead gives every result in order, with at most `width` reads under way', async () => {
    let running = 0;
    let most = 0;
    const read = async (n: number) => {
      running++;
      most = Math.max(most, running);
      // Later items finish first: the order given back must still be the items' own.
      await new Promise((done) => setTimeout(done, (20 - n) % 7));
      running--;
      return n * 10;
    };
    const got: [number, number][] = [];
    for await (const pair of readAhead(Array.from({ length: 20 }, (_, i) => i), read, 4)) got.push(pair);
    assert.deepEqual(got, Array.from({ length: 20 }, (_, i) => [i, i * 10]));
    assert.equal(most, 4);
  });

  it('readAhead: a failing read fails when its turn comes, and none is left unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const seen: number[] = [];
      const read = (n: number) => (n === 2 ? Promise.reject(new Error('two')) : Promise.resolve(n));
      await assert.rejects(async () => {
        for await (const [n] of readAhead([0, 1, 2, 3], read, 4)) seen.push(n);
      }, /two/);
      assert.deepEqual(seen, [0, 1]);
      await new Promise((done) => setTimeout(done, 10));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('projectRoot is the nearest folder holding .git at or above the workspace, else the workspace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pepe-root-'));
    try {
      mkdirSync(join(dir, 'outer/.git'), { recursive: true });
      mkdirSync(join(dir, 'outer/inner/.git'), { recursive: true });
      mkdirSync(join(dir, 'outer/inner/pkg/deep'), { recursive: true });
      mkdirSync(join(dir, 'plain/sub'), { recursive: true });
      assert.equal(await projectRoot(join(dir, 'outer/inner/pkg/deep')), join(dir, 'outer/inner'));
      assert.equal(await projectRoot(join(dir, 'outer/inner')), join(dir, 'outer/inner'));
      assert.equal(await projectRoot(join(dir, 'outer')), join(dir, 'outer'));
      // (No .git above the temporary folder is assumed: the machine's own root may hold one.)
      const plain = await projectRoot(join(dir, 'plain/sub'));
      assert.ok(plain === join(dir, 'plain/sub') || !plain.startsWith(dir), plain);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
