import assert from 'node:assert/strict';
import { join } from 'node:path';
import { conversationFigures, statusLine } from '../../../src/core/runtime/conversation-figures.js';
import { UsageLedger } from '../../../src/core/runtime/usage.js';
import { makeTempDir, removeDir } from '../permissions/helpers.js';

describe('what a conversation costs: the figures and the status line', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => removeDir(dir));

  it('sums the turn, the session, the context of its last call, the budget and the project', () => {
    const usage = new UsageLedger(join(dir, 'usage.jsonl'));
    const rec = (sessionId: string, turnId: string, inputTokens: number, outputTokens: number, costUsd: number) => usage.record({ agent: 'a', project: 'p', model: 'm', inputTokens, outputTokens, costUsd, sessionId, turnId });
    rec('s', 't1', 1000, 200, 0.01);
    rec('s', 't2', 30_000, 1_000, 0.25);
    rec('callee', 't3', 500, 100, 0.05);
    rec('other', 'x', 10, 10, 1);
    const config = { models: { m: { provider: 'mock' as const, model: 'mock', context_window: 100_000 } }, agents: { a: { project: 'p', limits: { max_cost: 2 } } }, projects: { p: { spend_cap_usd: 10 } } };
    const f = conversationFigures({ config, usage, agent: 'a', sessionId: 's', turnIds: ['t2', 't3'] });
    assert.deepEqual(f.turn, { calls: 2, inputTokens: 30_500, outputTokens: 1_100, costUsd: 0.3 });
    assert.equal(f.conversation.calls, 2);
    assert.deepEqual(f.context, { model: 'm', usedTokens: 31_000, windowTokens: 100_000, compactAtTokens: 60_000, compacted: false });
    assert.deepEqual(f.budget, { limitUsd: 2, spentUsd: 0.26 });
    assert.deepEqual(f.project, { name: 'p', spendUsd: 1.31, capUsd: 10, tier: 'normal' });
    assert.equal(statusLine(f), 'turn 31.6k tokens, $0.30 · conversation 32.2k tokens, $0.26 · context 31.0k of 100.0k (31%; compacts at 60.0k) · budget $0.26 of $2.00 · project p $1.31 of $10.00, normal');
    const compacted = conversationFigures({ config, usage, agent: 'a', sessionId: 's', compacted: true });
    assert.match(statusLine(compacted), /\(31%; compacted\)/);
    assert.equal(compacted.turn, null);
  });

  it('a session with no model call yet: nothing but zeros', () => {
    const usage = new UsageLedger(join(dir, 'usage.jsonl'));
    const f = conversationFigures({ config: {}, usage, agent: 'a', sessionId: 's' });
    assert.equal(statusLine(f), 'conversation 0 tokens');
  });
});
