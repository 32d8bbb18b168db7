/** Ids and nonces (src/core/random-id.ts): random hex of the asked length, never handed out twice. */
import assert from 'node:assert/strict';
import { randomHex } from '../../../src/core/random-id.js';

describe('random ids', () => {
  it('gives hex of twice the asked length, different every time, across refills of the pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = randomHex(8);
      assert.match(id, /^[0-9a-f]{16}$/);
      assert.ok(!seen.has(id), `${id} came twice`);
      seen.add(id);
    }
    for (const n of [1, 3, 4, 6, 255, 256, 257, 1024]) assert.equal(randomHex(n).length, n * 2);
  });

  it('looks uniform: every nibble value turns up about equally often', () => {
    const counts = new Array<number>(16).fill(0);
    const text = Array.from({ length: 400 }, () => randomHex(32)).join('');
    for (const c of text) counts[parseInt(c, 16)]! += 1;
    const expected = text.length / 16;
    // 25,600 nibbles: each value is expected 1,600 times; 1,400–1,800 is more than 5 standard deviations.
    for (const [v, n] of counts.entries()) assert.ok(Math.abs(n - expected) < 200, `nibble ${v} came ${n} times`);
  });

  // Failed before: the pool was taken from Node's shared buffer slab (Buffer.allocUnsafe), so the
  // memory behind any small buffer made meanwhile (its .buffer) held the next nonces.
  it('keeps the bytes still to be handed out where no other buffer can reach them', () => {
    randomHex(256); // the whole pool: the next call fills a fresh one
    randomHex(8);
    const others = [Buffer.from('unrelated'), Buffer.allocUnsafe(16), Buffer.from([1, 2, 3])];
    const reachable = others.map((b) => Buffer.from(new Uint8Array(b.buffer)).toString('hex')).join(' ');
    for (let i = 0; i < 20; i++) {
      const next = randomHex(8);
      assert.ok(!reachable.includes(next), `the nonce ${next} was readable before it was handed out`);
    }
  });
});
