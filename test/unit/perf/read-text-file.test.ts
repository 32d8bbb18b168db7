import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTextFile } from '../../../src/core/jsonl.js';

/** Issue 27: a plain ASCII transcript is decoded the cheap way; every file reads as UTF-8 would. */
describe('readTextFile: the same text as a UTF-8 read, for any bytes', () => {
  it('ASCII, UTF-8, a byte-order mark, invalid and torn sequences, NUL and control bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pepe-read-text-'));
    try {
      const samples: Buffer[] = [
        Buffer.from(''),
        Buffer.from('{"type":"message","content":"plain ascii"}\n'),
        Buffer.from('{"content":"café — ✓ 😀"}\n'),
        Buffer.from('\uFEFF{"a":1}\n'),
        Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]),
        Buffer.from([0x61, 0xe2, 0x82]),
        Buffer.from([0x00, 0x01, 0x1f, 0x7f, 0x0a]),
        Buffer.from([0x80]),
      ];
      samples.forEach((bytes, i) => {
        const file = join(dir, `f${i}`);
        writeFileSync(file, bytes);
        assert.equal(readTextFile(file), readFileSync(file, 'utf8'), `sample ${i}`);
      });
      assert.throws(() => readTextFile(join(dir, 'missing')), { code: 'ENOENT' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
