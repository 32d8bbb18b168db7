import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../../src/core/runtime/session-store.js';

/** Listing sessions (the chat's history, `pepe sessions list`) reads only what changed (issue 27). */
describe('session listing', () => {
  let dir: string;
  let store: SessionStore;
  let loads: string[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-session-list-'));
    store = new SessionStore(dir);
    loads = [];
    // A listing reads a transcript without keeping it (the chats' transcripts stay kept).
    const spied = store as unknown as { loadOnce(agent: string, id: string): unknown };
    const load = spied.loadOnce.bind(store);
    spied.loadOnce = (agent, id) => {
      loads.push(id);
      return load(agent, id);
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const say = (id: string, text: string) => store.appendMessage('a', id, { role: 'user', content: text });

  // Failed before: every listing parsed every transcript in full, on the editor's main thread.
  it('a second listing reads no transcript that is unchanged; one that grew is read again and shows it', () => {
    const ids = [store.create('a', { title: 'one' }), store.create('a', { title: 'two' }), store.create('a', { title: 'three' })];
    for (const id of ids) say(id, 'hello');
    const first = store.list('a');
    assert.equal(first.length, 3);
    assert.equal(loads.length, 3, 'the first listing reads each transcript');

    loads = [];
    assert.deepEqual(store.list('a'), first, 'the same listing');
    assert.deepEqual(loads, [], 'nothing changed, nothing read');

    say(ids[1]!, 'more');
    store.rename('a', ids[2]!, 'renamed');
    loads = [];
    const again = store.list('a');
    assert.deepEqual(loads.sort(), [ids[1], ids[2]].sort(), 'only the two that changed are read');
    const byId = Object.fromEntries(again.map((s) => [s.id, s]));
    assert.equal(byId[ids[1]!]!.messages, 2, 'the new message is counted');
    assert.equal(byId[ids[2]!]!.title, 'renamed');

    store.delete('a', ids[0]!);
    assert.deepEqual(store.list('a').map((s) => s.id).sort(), [ids[1], ids[2]].sort(), 'a deleted session is gone');
  });

  // Failed before: a listing read the file whole, so a last line another process had not finished
  // (valid JSON, no newline yet) was counted there and not in the chat's own load of the session.
  it('a listing and a load agree on a last line still being written: neither counts it until its newline', () => {
    const id = store.create('a', { title: 'torn' });
    say(id, 'hello');
    const file = join(dir, 'a', `${id}.jsonl`);
    appendFileSync(file, JSON.stringify({ type: 'message', ts: new Date().toISOString(), message: { role: 'user', content: 'half' } }));
    assert.equal(store.load('a', id).info.messages, 1, 'the load waits for the newline');
    assert.equal(store.list('a')[0]!.messages, 1, 'so does the listing');
    assert.equal(store.load('a', id, { keep: false }).info.messages, 1, 'and a search');
    appendFileSync(file, '\n');
    assert.equal(store.list('a')[0]!.messages, 2);
    assert.equal(store.load('a', id).info.messages, 2);
  });

  it('a transcript rewritten behind the store (another process) is read again; what a caller changes in a listing is not kept', () => {
    const id = store.create('a', { title: 'kept' });
    const [info] = store.list('a');
    info!.title = 'changed by a caller';
    info!.outsideContent.push('nowhere');
    assert.equal(store.list('a')[0]!.title, 'kept');
    assert.deepEqual(store.list('a')[0]!.outsideContent, []);

    const file = join(dir, 'a', `${id}.jsonl`);
    writeFileSync(file, `${JSON.stringify({ type: 'session', id, agent: 'a', createdAt: '2026-01-01T00:00:00.000Z', title: 'rewritten' })}\n`);
    assert.equal(store.list('a')[0]!.title, 'rewritten');
    appendFileSync(file, `${JSON.stringify({ type: 'taint', ts: '2026-01-01T00:00:01.000Z', change: 'add', sources: ['https://example.com'] })}\n`);
    assert.deepEqual(store.list('a')[0]!.outsideContent, ['https://example.com'], 'a line another process appended is seen');
    rmSync(file);
    assert.deepEqual(store.list('a'), [], 'a transcript removed behind the store is gone');
  });
});
