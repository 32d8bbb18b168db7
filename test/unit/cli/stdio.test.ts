/** The CLI's direct output (src/cli/stdio.ts) when its descriptor is a non-blocking pipe that fills up. */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../../..');

describe('CLI output written to the descriptor directly', function () {
  this.timeout(30_000);

  it('a non-blocking pipe that is full (a slow reader) still gets every byte, in order, and the command ends normally', async function () {
    if (process.platform !== 'linux') this.skip();
    const dir = mkdtempSync(join(tmpdir(), 'pepe-stdio-'));
    let r: number | undefined;
    try {
      const fifo = join(dir, 'out');
      execFileSync('mkfifo', [fifo]);
      // Both ends non-blocking: the writer's descriptor is shared with the child, O_NONBLOCK included.
      r = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const w = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      const line = (i: number) => `line ${i} ${'é'.repeat(20)} \u001b[2J\n`;
      const code = `const { stdout } = await import('./src/cli/stdio.ts'); for (let i = 0; i < 20000; i++) stdout((${line.toString()})(i)); stdout('end\\n');`;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', w, 'pipe'] });
      closeSync(w);
      let err = '';
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
      const exit = new Promise<number | null>((res) => child.once('close', (c) => res(c)));
      // Nothing read for a while: the pipe's 64 KiB fill up long before the 600 KiB are written.
      await new Promise((res) => setTimeout(res, 1_000));
      const chunks: Buffer[] = [];
      const buf = Buffer.alloc(65_536);
      for (;;) {
        let n: number;
        try {
          n = readSync(r, buf, 0, buf.length, null);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
          await new Promise((res) => setTimeout(res, 5));
          continue;
        }
        if (n === 0) break;
        chunks.push(Buffer.from(buf.subarray(0, n)));
      }
      assert.equal(await exit, 0, err);
      assert.equal(err, '');
      const expected = Array.from({ length: 20000 }, (_, i) => line(i)).join('') + 'end\n';
      const got = Buffer.concat(chunks).toString('utf8');
      assert.equal(got.length, expected.length);
      assert.ok(got === expected, 'the output is not what was written, in order');
    } finally {
      if (r !== undefined) closeSync(r);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
