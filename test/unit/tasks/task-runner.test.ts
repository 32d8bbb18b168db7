import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TurnResult } from '../../../src/core/events.js';
import { TaskStore } from '../../../src/core/tasks/record.js';
import { runTask } from '../../../src/core/tasks/runner.js';

describe('background tasks: the runner', () => {
  let dir: string;
  let store: TaskStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-task-runner-'));
    store = new TaskStore(dir);
    store.write({ id: 'aaaa00000000', agent: 'a', text: 'go', status: 'starting', checkout: '/c', gitDir: '/c/.git', base: 'HEAD', baseCommit: 'a'.repeat(40), branch: 'pepe/task-aaaa00000000', worktree: '/w', worktreeGitDir: '/c/.git/worktrees/w', createdAt: new Date().toISOString(), turns: 0 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const result = (over: Partial<TurnResult> = {}): TurnResult => ({ agent: 'a', sessionId: 's1', turnId: 't', content: 'answer', status: 'ok', tookInOutsideContent: false, messages: [], ...over });

  it('waits while calls are parked, then takes another turn in the same session; done after it', async () => {
    const texts: (string | undefined)[] = [];
    const sessions: (string | undefined)[] = [];
    let pending = ['p1'];
    const seen: string[] = [];
    const end = await runTask('aaaa00000000', {
      store,
      signal: new AbortController().signal,
      pollMs: 5,
      turn: async (o) => {
        texts.push(o.text);
        sessions.push(o.sessionId);
        return result();
      },
      pendingOf: async () => {
        seen.push(store.read('aaaa00000000')!.status);
        const now = pending;
        if (seen.length > 2) pending = [];
        return now;
      },
    });
    assert.equal(end.status, 'done');
    assert.equal(end.turns, 2);
    assert.deepEqual(sessions, [undefined, 's1']);
    assert.equal(texts[0], 'go');
    assert.match(texts[1]!, /decided on the calls/);
    assert.ok(seen.includes('waiting'));
    assert.equal(end.pid, undefined);
  });

  it('a stop while waiting ends it stopped; a failed turn ends it failed with the reason', async () => {
    const ac = new AbortController();
    const stopped = await runTask('aaaa00000000', { store, signal: ac.signal, pollMs: 5, turn: async () => result(), pendingOf: async () => (setTimeout(() => ac.abort(), 20), ['p1']) });
    assert.equal(stopped.status, 'stopped');
    const failed = await runTask('aaaa00000000', { store, signal: new AbortController().signal, turn: async () => result({ status: 'budget', error: 'over budget' }), pendingOf: async () => [] });
    assert.equal(failed.status, 'failed');
    assert.match(failed.error ?? '', /budget: over budget/);
  });
});
