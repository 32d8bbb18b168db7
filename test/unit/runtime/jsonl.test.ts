import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, readdirSync, renameSync, rmSync, statSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendLine, closeKeptFiles, JsonLinesFile, keptOpenFiles, parseJsonLines, readJsonLines } from '../../../src/core/jsonl.js';
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

  describe('appendLine keeps a file it appends to open for a moment (issue 27)', () => {
    beforeEach(() => closeKeptFiles());
    afterEach(() => closeKeptFiles());
    const ns = (f: string) => readJsonLines<{ n: unknown }>(f).map((v) => v.n);
    /** The files this process has open now, by name. */
    const openHere = () => readdirSync('/proc/self/fd').map((fd) => { try { return readlinkSync(`/proc/self/fd/${fd}`); } catch { return ''; } });

    it('the next append writes through the open file, and the lines are whole and in order', () => {
      const f = join(dir, 's.jsonl');
      for (let i = 1; i <= 3; i++) appendLine(f, JSON.stringify({ n: i }));
      assert.deepEqual(ns(f), [1, 2, 3]);
      assert.deepEqual(keptOpenFiles(), [f]);
      assert.equal(openHere().filter((p) => p === f).length, 1, 'one descriptor for the file, not one per line');
    });

    it('a file deleted, replaced or renamed away since gets no more lines: the name is opened again', () => {
      const f = join(dir, 's.jsonl');
      appendLine(f, '{"n":1}');
      unlinkSync(f);
      appendLine(f, '{"n":2}');
      assert.deepEqual(ns(f), [2], 'deleted: the line went to a new file by that name');
      // Renamed away (the old file still exists under another name): the line goes to the name.
      renameSync(f, join(dir, 'moved.jsonl'));
      writeFileSync(f, '{"n":"new"}\n');
      appendLine(f, '{"n":3}');
      assert.deepEqual(ns(f), ['new', 3]);
      assert.deepEqual(ns(join(dir, 'moved.jsonl')), [2], 'nothing more was written to the file renamed away');
      // Replaced by rename over it.
      writeFileSync(join(dir, 'next.jsonl'), '{"n":"next"}\n');
      renameSync(join(dir, 'next.jsonl'), f);
      appendLine(f, '{"n":4}');
      assert.deepEqual(ns(f), ['next', 4]);
      // Its folder removed and made again (a test's home, a person's clean-up).
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      appendLine(f, '{"n":5}');
      assert.deepEqual(ns(f), [5]);
    });

    it('a line another writer added (torn or whole) while the file was kept open is not glued onto', () => {
      const f = join(dir, 's.jsonl');
      appendLine(f, '{"n":1}');
      appendFileSync(f, '{"n":2}\n');
      appendLine(f, '{"n":3}');
      appendFileSync(f, '{"n":"torn');
      appendLine(f, '{"n":4}');
      assert.deepEqual(ns(f), [1, 2, 3, 4]);
      // Truncated in place (same file): the next line starts a line of its own there too.
      truncateSync(f, 3);
      appendLine(f, '{"n":5}');
      assert.equal(readFileSync(f, 'utf8'), '{"n\n{"n":5}\n');
    });

    it('a command started later inherits no descriptor to the file (a confined command gets no way into a transcript)', () => {
      const f = join(dir, 'secret-session.jsonl');
      appendLine(f, '{"n":1}');
      assert.ok(openHere().includes(f), 'kept open in this process');
      const childFds = execFileSync('sh', ['-c', 'for fd in /proc/self/fd/*; do readlink "$fd" || true; done'], { encoding: 'utf8' });
      assert.ok(!childFds.includes(f), `the child holds the transcript open:\n${childFds}`);
    });

    it('at most 16 files are kept open, the least recently opened closed first; all are closed after a quiet moment', async function () {
      this.timeout(10_000);
      const files = Array.from({ length: 20 }, (_, i) => join(dir, `f${i}.jsonl`));
      for (const f of files) appendLine(f, '{"n":1}');
      assert.deepEqual(keptOpenFiles(), files.slice(4));
      assert.equal(openHere().filter((p) => files.includes(p)).length, 16);
      await new Promise((done) => setTimeout(done, 4500));
      assert.deepEqual(keptOpenFiles(), []);
      assert.equal(openHere().filter((p) => files.includes(p)).length, 0, 'closed after two quiet seconds');
      for (const f of files) assert.deepEqual(ns(f), [1]);
    });
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
