import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../../src/core/runtime/session-store.js';
import { searchSessions } from '../../../src/extension/chat/session-search.js';
import { dayBucket, groupSessions } from '../../../src/webview/history-list.js';

describe('chat history: search and groups', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-history-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the search reads the messages too, as pepe sessions list --search does; routed sessions stay out', () => {
    const store = new SessionStore(dir);
    const garden = store.create('echo', { title: 'planning the garden' });
    store.appendMessage('echo', garden, { role: 'user', content: 'planning the garden' });
    store.appendMessage('echo', garden, { role: 'user', content: 'the pelican nests by the pond' });
    const other = store.create('echo', { title: 'something else' });
    store.appendMessage('echo', other, { role: 'user', content: 'pelican' });
    const routed = store.create('helper', { title: 'pelican pond', origin: 'routed' });
    store.appendMessage('helper', routed, { role: 'user', content: 'pelican pond' });

    assert.deepEqual(searchSessions(store, 'Pelican POND').map((s) => s.id), [garden]);
    assert.deepEqual(new Set(searchSessions(store, 'pelican').map((s) => s.id)), new Set([garden, other]));
    assert.equal(searchSessions(store, '').length, 2);
    assert.deepEqual(searchSessions(store, 'nothing-like-this'), []);
  });

  it('groups by agent and day, newest first', () => {
    const now = new Date(2026, 11, 2, 12, 0, 0);
    const at = (d: number, h = 10) => new Date(2026, 11, d, h).toISOString();
    assert.equal(dayBucket(at(2, 1), now), 'Today');
    assert.equal(dayBucket(at(1, 23), now), 'Yesterday');
    assert.equal(dayBucket(new Date(2026, 10, 28, 10).toISOString(), now), 'Previous 7 days');
    assert.equal(dayBucket('2025-01-01T00:00:00Z', now), 'Older');
    assert.equal(dayBucket('not a date', now), 'Older');
    const s = (agent: string, id: string, updatedAt: string) => ({ agent, id, title: id, updatedAt, messages: 2 });
    const groups = groupSessions([s('a', 'old', '2025-01-01T00:00:00Z'), s('b', 'b1', at(2, 9)), s('a', 'a1', at(2, 11)), s('a', 'a0', at(1, 9))], now);
    assert.deepEqual(groups.map((g) => [g.agent, g.day, g.sessions.map((x) => x.id)]), [
      ['a', 'Today', ['a1']],
      ['b', 'Today', ['b1']],
      ['a', 'Yesterday', ['a0']],
      ['a', 'Older', ['old']],
    ]);
  });
});
