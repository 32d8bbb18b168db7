import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../../src/core/runtime/session-store.js';
import { TempHome } from '../helpers/home.js';

/**
 * Loading a session (every turn of a chat does, some more than once) reads only the lines written
 * since the last load of it (issue 27), and says exactly what a fresh read of the file would say.
 */
describe('session loading', () => {
  let dir: string;
  let store: SessionStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-session-load-'));
    store = new SessionStore(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** JSON.parse calls made by `fn`. */
  function parses<T>(fn: () => T): { value: T; count: number } {
    const real = JSON.parse;
    let count = 0;
    JSON.parse = function (this: unknown, ...args: Parameters<typeof JSON.parse>) {
      count++;
      return real.apply(this, args);
    } as typeof JSON.parse;
    try {
      return { value: fn(), count };
    } finally {
      JSON.parse = real;
    }
  }
  const fresh = (id: string) => new SessionStore(dir).load('a', id);

  // Failed before: each load parsed and checked every line of the transcript again.
  it('a load after one more line parses that line, not the whole transcript; it says what a fresh read says', () => {
    const id = store.create('a', { title: 't' });
    for (let i = 0; i < 300; i++) store.appendMessage('a', id, { role: i % 2 ? 'assistant' : 'user', content: `message ${i}` });
    assert.equal(parses(() => store.load('a', id)).count >= 300, true, 'the first load reads it all');
    store.appendMessage('a', id, { role: 'user', content: 'one more' });
    const { value, count } = parses(() => store.load('a', id));
    assert.ok(count <= 2, `parsed ${count} lines for one new one`);
    assert.equal(value.messages.length, 301);
    assert.deepEqual(value, fresh(id));
    assert.equal(parses(() => store.load('a', id)).count, 0, 'unchanged: nothing parsed');
  });

  it('every kind of line folds the same incrementally as in one read (rename, state, bootstrap, compaction, taint, hidden)', () => {
    const id = store.create('a');
    const steps: Array<() => void> = [
      () => store.appendMessage('a', id, { role: 'user', content: 'hi' }),
      () => store.appendBootstrap('a', id, ['ctx one']),
      () => store.appendMessage('a', id, { role: 'assistant', content: 'hidden' }, { hidden: true }),
      () => store.rename('a', id, 'named'),
      () => store.appendState('a', id, 'core', { n: 1 }),
      () => store.appendTaint('a', id, { sources: ['https://example.com'] }),
      () => store.appendCompaction('a', id, [{ role: 'user', content: 'summary' }]),
      () => store.appendMessage('a', id, { role: 'assistant', content: 'after' }),
      () => store.appendState('a', id, 'core', { n: 2 }),
      () => store.trust('a', id),
    ];
    for (const step of steps) {
      step();
      assert.deepEqual(store.load('a', id), fresh(id));
    }
    const s = store.load('a', id);
    assert.equal(s.info.title, 'named');
    assert.deepEqual(s.state, { core: { n: 2 } });
    assert.equal(s.compacted, true);
    assert.deepEqual(s.messages.map((m) => m.content), ['summary', 'after']);
  });

  it('what a caller does with a loaded session never changes the next load', () => {
    const id = store.create('a');
    store.appendMessage('a', id, { role: 'user', content: 'hi' });
    store.appendState('a', id, 'core', { list: [1] });
    store.appendBootstrap('a', id, ['ctx']);
    store.appendTaint('a', id, { sources: ['https://example.com'] });
    const first = store.load('a', id);
    first.messages.push({ role: 'user', content: 'pushed by a caller' });
    first.state.other = 1;
    first.info.title = 'changed';
    first.info.outsideContent.push('x');
    first.taint?.sources.push('y');
    first.bootstrap?.push('x');
    assert.deepEqual(store.load('a', id), fresh(id));
  });

  it('a transcript replaced, truncated or rewritten in place behind the store is read again from the start', () => {
    const id = store.create('a', { title: 'first' });
    store.appendMessage('a', id, { role: 'user', content: 'aaaa' });
    store.load('a', id);
    const file = join(dir, 'a', `${id}.jsonl`);
    const session = (title: string) => `${JSON.stringify({ type: 'session', id, agent: 'a', createdAt: '2026-01-01T00:00:00.000Z', title })}\n`;
    const message = (content: string) => `${JSON.stringify({ type: 'message', ts: '2026-01-01T00:00:01.000Z', message: { role: 'user', content } })}\n`;

    // Deleted and written again under the same name (a new file), longer than before.
    rmSync(file);
    writeFileSync(file, session('second') + message('bbbb') + message('cccc'));
    assert.deepEqual(store.load('a', id), fresh(id));
    assert.equal(store.load('a', id).info.title, 'second');

    // The same file rewritten in place to the same size, its modification time put back: only the change time tells.
    const before = statSync(file, { bigint: true });
    writeFileSync(file, session('thirds') + message('dddd') + message('eeee'));
    const ns = before.mtimeNs % 1_000_000_000n;
    execFileSync('touch', ['-m', '-d', `@${before.mtimeNs / 1_000_000_000n}.${String(ns).padStart(9, '0')}`, file]);
    assert.equal(statSync(file, { bigint: true }).mtimeNs, before.mtimeNs, 'the modification time is put back');
    assert.deepEqual(store.load('a', id).messages.map((m) => m.content), ['dddd', 'eeee']);

    // Truncated to less than was read.
    writeFileSync(file, session('fourth'));
    assert.deepEqual(store.load('a', id), fresh(id));
    assert.deepEqual(store.load('a', id).messages, []);

    // Rewritten in place, longer, with a newline where the last read ended: earlier lines changed.
    const kept = session('fifth') + message('ffff');
    writeFileSync(file, kept);
    store.load('a', id);
    writeFileSync(file, session('sixth') + message('gggg') + message('hhhh'));
    assert.deepEqual(store.load('a', id), fresh(id));
    assert.equal(store.load('a', id).info.title, 'sixth');
  });

  it('a torn last line waits for its newline; a line another writer appends is seen', () => {
    const id = store.create('a');
    const file = join(dir, 'a', `${id}.jsonl`);
    const line = JSON.stringify({ type: 'message', ts: '2026-01-01T00:00:01.000Z', message: { role: 'user', content: 'from another process' } });
    appendFileSync(file, line.slice(0, 20));
    assert.equal(store.load('a', id).messages.length, 0);
    appendFileSync(file, `${line.slice(20)}\n`);
    assert.deepEqual(store.load('a', id).messages.map((m) => m.content), ['from another process']);
    assert.deepEqual(store.load('a', id), fresh(id));
  });

  it('a look through many sessions (keep: false) keeps none of them, and does not push out the ones kept', () => {
    const chat = store.create('a');
    for (let i = 0; i < 50; i++) store.appendMessage('a', chat, { role: 'user', content: `m${i}` });
    store.load('a', chat);
    const others = Array.from({ length: 20 }, () => store.create('a'));
    for (const id of others) assert.deepEqual(store.load('a', id, { keep: false }), fresh(id));
    store.appendMessage('a', chat, { role: 'user', content: 'next' });
    const { value, count } = parses(() => store.load('a', chat));
    assert.ok(count <= 2, `the chat was pushed out: ${count} lines parsed`);
    assert.deepEqual(value, fresh(chat));
    assert.equal(parses(() => store.load('a', others[0]!, { keep: false })).count, 1, 'not kept: read again');
  });

  it('a deleted session is no longer loaded', () => {
    const id = store.create('a');
    store.load('a', id);
    store.delete('a', id);
    assert.throws(() => store.load('a', id), /no session/);
  });

  // The kept transcript's messages are shared from load to load: nothing a turn does (answers,
  // tool calls, compaction) may change one in place, or the next load would differ from the file.
  it('after real turns (with compaction), a kept load says what a fresh read of the file says', async function () {
    this.timeout(30_000);
    const home = new TempHome();
    try {
      home.writeConfig({ agents: { a: { model: 'small' } }, models: { small: { provider: 'mock', model: 'mock', context_window: 1500 } } });
      const pepe = await home.pepe({ workspace: home.dir });
      let sessionId: string | undefined;
      const compactedAfter: boolean[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await pepe.run({ agent: 'a', text: `turn ${i}: ${'words that fill the window '.repeat(6)}`, ...(sessionId ? { sessionId } : {}) });
        assert.equal(r.status, 'ok', r.error);
        sessionId = r.sessionId;
        assert.deepEqual(pepe.sessionLoad('a', sessionId), new SessionStore(join(home.dir, 'sessions')).load('a', sessionId), `after turn ${i}`);
        compactedAfter.push(pepe.sessionLoad('a', sessionId).compacted);
      }
      assert.deepEqual([compactedAfter[2], compactedAfter[9]], [false, true], `turns before the first compaction, then one: ${compactedAfter.join(' ')}`);
      pepe.dispose();
    } finally {
      home.cleanup();
    }
  });
});
