import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../../../src/core/messages.js';
import { MockProvider } from '../../../src/core/models/mock.js';
import type { ModelProvider } from '../../../src/core/models/provider.js';
import { compactBuiltin, estimateTokens, needsCompaction, SUMMARY_TAG } from '../../../src/core/runtime/compaction.js';
import { collectEvents, script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

function conversation(pairs: number): Message[] {
  const out: Message[] = [{ role: 'system', content: 'RULES: always be polite.' }];
  for (let i = 0; i < pairs; i++) {
    out.push({ role: 'user', content: `question ${i} ${'x'.repeat(200)}` });
    out.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, name: 'list_dir', arguments: { path: `d${i}` } }] });
    out.push({ role: 'tool', tool_call_id: `c${i}`, name: 'list_dir', content: `file${i} ${'y'.repeat(200)}` });
    out.push({ role: 'assistant', content: `answer ${i}` });
  }
  return out;
}

function pairsIntact(messages: Message[]): boolean {
  const calls = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) calls.add(c.id);
    if (m.role === 'tool' && !calls.has(m.tool_call_id)) return false;
  }
  return true;
}

describe('compaction (spec 4.5)', () => {
  it('condenses the middle, keeps system messages and a verbatim tail, never splits a call from its result', async () => {
    const messages = conversation(40);
    const window = Math.ceil(estimateTokens(messages) / 0.7);
    assert.ok(needsCompaction(messages, window), 'needsCompaction(messages, window)');
    const summariser = new MockProvider('summariser', { steps: [{ text: 'The user asked 40 questions about folders.' }] });
    const out = await compactBuiltin(messages, summariser, window);
    assert.ok(out.length < messages.length, 'out.length < messages.length');
    assert.deepEqual(out[0], messages[0], 'the system prompt is intact');
    assert.equal(out[1]!.role, 'user');
    assert.match(out[1]!.content, new RegExp(`<${SUMMARY_TAG} messages="\\d+">`));
    assert.match(out[1]!.content, /The user asked 40 questions/);
    assert.ok(pairsIntact(out), 'every tool result follows its call');
    assert.notEqual(out[2]!.role, 'tool');
    assert.deepEqual(out.at(-1), messages.at(-1), 'the tail is verbatim');
    assert.ok(estimateTokens(out) < window * 0.6, 'estimateTokens(out) < window * 0.6');
  });

  it('a failing summary returns the original messages', async () => {
    const failing: ModelProvider = {
      id: 'broken',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error('model down');
      },
    };
    const messages = conversation(30);
    const out = await compactBuiltin(messages, failing, Math.ceil(estimateTokens(messages) / 0.7));
    assert.equal(out, messages);
  });

  // Failed before: every estimate serialised every earlier tool call again, so a long session's
  // steps (one estimate before each model call) cost more the longer it grew (issue 27).
  it('the token estimate counts each message once: asking again serialises no earlier tool call', () => {
    const messages = conversation(500);
    const first = estimateTokens(messages);
    const stringify = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
      calls++;
      return stringify(...args);
    }) as typeof JSON.stringify;
    let again: number;
    try {
      again = estimateTokens(messages);
    } finally {
      JSON.stringify = stringify;
    }
    assert.equal(again, first);
    assert.equal(calls, 0, 'no tool call list was serialised a second time');
    // The same figure as counting afresh: 4 characters a token, 8 a message, the tool calls as JSON.
    const chars = messages.reduce((n, m) => n + m.content.length + 8 + (m.role === 'assistant' && m.tool_calls ? stringify(m.tool_calls).length : 0), 0);
    assert.equal(first, Math.ceil(chars / 4));
  });

  it('a message changed since it was counted is counted afresh', () => {
    const messages: Message[] = [{ role: 'user', content: 'x'.repeat(40) }, { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'list_dir', arguments: { path: 'a' } }] }];
    const before = estimateTokens(messages);
    messages[0]!.content = 'x'.repeat(400);
    const longer = estimateTokens(messages);
    assert.equal(longer, before + 90, 'new content counts');
    const assistant = messages[1] as Extract<Message, { role: 'assistant' }>;
    assistant.tool_calls!.push({ id: 'c2', name: 'list_dir', arguments: { path: 'b'.repeat(400) } });
    assert.ok(estimateTokens(messages) > longer + 100, 'a call added to the same list counts');
    const grown = estimateTokens(messages);
    assistant.tool_calls = [];
    assert.ok(estimateTokens(messages) < grown - 100, 'a replaced list counts');
  });

  describe('in a turn', function () {
    this.timeout(20_000);
    let home: TempHome;
    beforeEach(() => {
      home = new TempHome();
    });
    afterEach(() => home.cleanup());

    it('a long scripted conversation is compacted at the threshold and the session resumes from the condensed view', async () => {
      const steps = Array.from({ length: 40 }, () => ({ text: 'ok '.repeat(120) }));
      const model = script(home, 'a', steps);
      home.writeConfig({ agents: { a: { model: 'small', system_prompt: 'SYSTEM RULES stay.' } }, models: { small: { provider: 'mock', model: model.slice(5), context_window: 2000 } } });
      const pepe = await home.pepe({ workspace: home.dir });
      let sessionId: string | undefined;
      let compactions = 0;
      for (let i = 0; i < 12; i++) {
        const { onEvent, events } = collectEvents();
        const r = await pepe.run({ agent: 'a', text: `message ${i} ${'z'.repeat(300)}`, sessionId, onEvent });
        sessionId = r.sessionId;
        compactions += events.filter((e) => e.type === 'compaction').length;
      }
      assert.ok(compactions >= 1, 'compacted at least once');
      const last = await pepe.run({ agent: 'a', text: 'show me', sessionId });
      assert.equal(last.messages[0]!.role, 'system');
      assert.match(last.messages[0]!.content, /^SYSTEM RULES stay\./, 'system prompt intact');
      assert.ok(last.messages.some((m) => m.content.includes('<conversation-summary')), 'last.messages.some((m) => m.content.includes(\'<conversation-summary\'))');
      assert.ok(estimateTokens(last.messages) < 2000, 'estimateTokens(last.messages) < 2000');
      const resumed = pepe.sessionLoad('a', sessionId!).messages;
      assert.ok(resumed.length < 2 * 13, 'resuming starts from the condensed view, not the whole history');
      const transcript = readFileSync(join(home.dir, 'sessions/a', `${sessionId}.jsonl`), 'utf8');
      assert.match(transcript, /"type":"compaction"/);
    });

    it('the tail_only_compaction plugin keeps system + last 12 + one marker', async () => {
      home.writePlugin('tail_only_compaction.mjs', readFileSync(join(import.meta.dirname, '../../../docs/examples/plugins/tail_only_compaction.mjs'), 'utf8'));
      const steps = [...Array.from({ length: 20 }, () => ({ text: 'fine '.repeat(60) })), { echo_prompt: true as const }];
      const model = script(home, 'a', steps);
      home.writeConfig({
        agents: { a: { model: 'small', slots: { compaction: 'tail_only_compaction' } } },
        models: { small: { provider: 'mock', model: model.slice(5), context_window: 3000 } },
      });
      const pepe = await home.pepe({ workspace: home.dir });
      let sessionId: string | undefined;
      const by = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const { onEvent, events } = collectEvents();
        const r = await pepe.run({ agent: 'a', text: `turn ${i} ${'q'.repeat(200)}`, sessionId, onEvent });
        sessionId = r.sessionId;
        for (const e of events) if (e.type === 'compaction') by.add(e.by);
      }
      assert.deepEqual([...by], ['tail_only_compaction']);
      const saved = pepe.sessionLoad('a', sessionId!).messages;
      assert.ok(saved.some((m) => /dropped to fit the context window \(tail_only_compaction\)/.test(m.content)), 'saved.some((m) => /dropped to fit the context window \\(tail_only_compaction\\)/.test(m.content))');
    });
  });
});
