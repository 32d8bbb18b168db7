import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendLine, JsonLinesFile, parseJsonLines, readJsonLines } from '../../../src/core/jsonl.js';
import { EventLog } from '../../../src/core/log.js';

describe('JSON Lines: one reader for the log, usage and sessions', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-jsonl-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('skips blank lines, torn lines and values the caller turns down', () => {
    const text = '{"a":1}\n\n  \n{"a":2\n{"a":3}\n"x"\n{"a":4}';
    assert.deepEqual(parseJsonLines(text), [{ a: 1 }, { a: 3 }, 'x', { a: 4 }]);
    const numbers = (v: unknown) => (typeof v === 'object' && v && typeof (v as { a?: unknown }).a === 'number' ? (v as { a: number }).a : undefined);
    assert.deepEqual(parseJsonLines(text, numbers), [1, 3, 4]);
    assert.deepEqual(readJsonLines(join(dir, 'missing.jsonl')), []);
  });

  describe('JsonLinesFile (cached, incremental)', () => {
    const line = (n: number) => `${JSON.stringify({ n })}\n`;

    it('an unchanged file is not read again; one rewritten to the same size with its modification time put back is', () => {
      const file = join(dir, 'log.jsonl');
      writeFileSync(file, line(1) + line(2));
      const reader = new JsonLinesFile<{ n: number }>(file);
      const first = reader.read();
      assert.deepEqual(first, [{ n: 1 }, { n: 2 }]);
      assert.equal(reader.read(), first, 'unchanged: the same array');
      // Same length, same modification time, different bytes: the change time tells (it cannot be put back).
      const { mtime } = statSync(file);
      writeFileSync(file, line(7) + line(8));
      utimesSync(file, mtime, mtime);
      assert.deepEqual(reader.read(), [{ n: 7 }, { n: 8 }]);
    });

    it('a grown file: only the appended bytes are parsed; a grown file whose earlier lines changed is read again', () => {
      const file = join(dir, 'log.jsonl');
      writeFileSync(file, line(1) + line(2));
      const reader = new JsonLinesFile<{ n: number }>(file);
      reader.read();
      const real = JSON.parse;
      let parsed = 0;
      JSON.parse = ((...args: Parameters<typeof JSON.parse>) => (parsed++, real(...args))) as typeof JSON.parse;
      try {
        appendFileSync(file, line(3));
        assert.deepEqual(reader.read(), [{ n: 1 }, { n: 2 }, { n: 3 }]);
        assert.equal(parsed, 1, 'one line appended, one line parsed');
      } finally {
        JSON.parse = real;
      }
      // The first line rewritten in place (same length), then a line appended: read from the start.
      writeFileSync(file, line(9) + line(2) + line(3) + line(4));
      assert.deepEqual(reader.read(), [{ n: 9 }, { n: 2 }, { n: 3 }, { n: 4 }]);
      // The line before where the last read ended rewritten, then one appended.
      writeFileSync(file, line(9) + line(2) + line(3) + line(5) + line(6));
      assert.deepEqual(reader.read(), [{ n: 9 }, { n: 2 }, { n: 3 }, { n: 5 }, { n: 6 }]);
    });

    it('a line still being written waits for its newline', () => {
      const file = join(dir, 'log.jsonl');
      writeFileSync(file, `${line(1)}{"n":`);
      const reader = new JsonLinesFile<{ n: number }>(file);
      assert.deepEqual(reader.read(), [{ n: 1 }]);
      appendFileSync(file, '2}\n');
      assert.deepEqual(reader.read(), [{ n: 1 }, { n: 2 }]);
    });

    it('a replaced, truncated or rewritten file is read again from the start', () => {
      const file = join(dir, 'log.jsonl');
      writeFileSync(file, line(1) + line(2));
      const reader = new JsonLinesFile<{ n: number }>(file);
      reader.read();
      // Replaced (a new file renamed over it), even larger.
      writeFileSync(join(dir, 'next'), line(5) + line(6) + line(7));
      renameSync(join(dir, 'next'), file);
      assert.deepEqual(reader.read(), [{ n: 5 }, { n: 6 }, { n: 7 }]);
      // Truncated.
      truncateSync(file, line(5).length);
      assert.deepEqual(reader.read(), [{ n: 5 }]);
      // Rewritten in place, longer, with no line ending where the last read stopped.
      writeFileSync(file, `${JSON.stringify({ n: 10, pad: 'xxxx' })}\n${line(11)}`);
      assert.deepEqual(reader.read(), [{ n: 10, pad: 'xxxx' }, { n: 11 }]);
    });

    it('a missing file has no lines until it appears', () => {
      const file = join(dir, 'later.jsonl');
      const reader = new JsonLinesFile(file);
      assert.deepEqual(reader.read(), []);
      writeFileSync(file, line(1));
      assert.deepEqual(reader.read(), [{ n: 1 }]);
      rmSync(file);
      assert.deepEqual(reader.read(), []);
    });
  });

  it('appendLine: a line torn by another writer, or a file replaced since the last append, gets its newline first', () => {
    const f = join(dir, 'a.jsonl');
    appendLine(f, '{"n":1}');
    appendLine(f, '{"n":2}');
    appendFileSync(f, '{"n":"torn');
    appendLine(f, '{"n":3}');
    assert.deepEqual(readJsonLines<{ n: unknown }>(f).map((v) => v.n), [1, 2, 3]);
    // Replaced by a file of the very size this process left, torn at its end.
    const size = statSync(f).size;
    writeFileSync(join(dir, 'b.jsonl'), `${'{"n":"x"}\n'.repeat(2)}`.padEnd(size, ' ').slice(0, size - 1) + '{');
    renameSync(join(dir, 'b.jsonl'), f);
    appendLine(f, '{"n":4}');
    assert.deepEqual(readJsonLines<{ n: unknown }>(f).map((v) => v.n), ['x', 'x', 4]);
  });

  it('EventLog.readKind: cached, sees what another writer appended, keeps only its kind', () => {
    const mine = new EventLog(dir);
    const other = new EventLog(dir);
    mine.write({ kind: 'info', message: 'one' });
    mine.write({ kind: 'plugin_output', plugin: 'p', text: 'x'.repeat(1000) });
    const infos = mine.readKind('info');
    assert.deepEqual(infos.map((e) => e.message), ['one']);
    assert.equal(mine.readKind('info'), infos, 'unchanged: the cached lines, not a fresh read');
    other.write({ kind: 'info', message: 'two' });
    assert.deepEqual(mine.readKind('info').map((e) => e.message), ['one', 'two']);
    assert.deepEqual(mine.readKind('slot_fallback'), []);
    assert.equal(mine.readAll().length, 3, 'readAll reads every kind, now');
  });
});
