import assert from 'node:assert/strict';
import type { ToolMessage } from '../../../src/core/messages.js';
import { LoopGuard } from '../../../src/core/runtime/loop-guard.js';
import { MAX_TOOL_CALLS_PER_MESSAGE, MAX_TOOL_CALLS_PER_TURN } from '../../../src/core/runtime/turn-loop.js';
import { collectEvents, script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/** A hostile or broken model cannot flood a turn with tool calls (issue 13). */
describe('flood bounds in the turn loop', function () {
  this.timeout(60_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const toolMessages = (messages: { role: string }[]) => messages.filter((m): m is ToolMessage => m.role === 'tool');
  const memoryCalls = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ name: 'memory_search', arguments: { query: `q${from + i}` } }));

  it('at most 64 tool calls per model message: every call gets a result, the ones over the cap an error', async () => {
    assert.equal(MAX_TOOL_CALLS_PER_MESSAGE, 64);
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: memoryCalls(100) }, { text: 'done' }]) } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'go', onEvent });
    const results = toolMessages(result.messages);
    assert.equal(results.length, 100, 'every tool call has a result');
    assert.ok(results.slice(0, 64).every((m) => !m.is_error), 'the first 64 ran');
    assert.ok(results.slice(64).every((m) => m.is_error && /not run: .*64 tool calls in one message/.test(m.content)), results[64]?.content);
    assert.equal(events.filter((e) => e.type === 'tool_result').length, 100);
    assert.equal(result.content, 'done');
  });

  it('at most 64 tool calls per turn, across model messages', async () => {
    assert.equal(MAX_TOOL_CALLS_PER_TURN, 64);
    const steps = [{ tool_calls: memoryCalls(40) }, { tool_calls: memoryCalls(40, 40) }, { text: 'done' }];
    home.writeConfig({ agents: { a: { model: script(home, 'a', steps) } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const result = await pepe.run({ agent: 'a', text: 'go' });
    const results = toolMessages(result.messages);
    assert.equal(results.length, 80);
    assert.equal(results.filter((m) => !m.is_error).length, 64);
    assert.ok(results.slice(64).every((m) => m.is_error && /64 tool calls in this turn/.test(m.content)), results[64]?.content);
  });

  it('malformed arguments count toward the loop guard: three in a row stop tool use', async () => {
    const bad = (i: number) => ({ name: 'memory_search', arguments: { query: i } });
    const steps = [{ tool_calls: [bad(1)] }, { tool_calls: [bad(2)] }, { tool_calls: [bad(3)] }, { tool_calls: [{ name: 'memory_search', arguments: { query: 'ok' } }] }, { text: 'gave up' }];
    home.writeConfig({ agents: { a: { model: script(home, 'a', steps) } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const result = await pepe.run({ agent: 'a', text: 'go' });
    assert.equal(result.status, 'loop_guard');
    const results = toolMessages(result.messages);
    assert.match(results[2]!.content, /invalid arguments for memory_search[\s\S]*loop guard: 3 tool calls in a row had invalid arguments/);
  });

  it('a valid call in between resets the malformed count', () => {
    const guard = new LoopGuard();
    assert.equal(guard.malformed('x'), null);
    assert.equal(guard.malformed('x'), null);
    assert.equal(guard.check('y', { a: 1 }), null);
    assert.equal(guard.malformed('x'), null);
    assert.equal(guard.malformed('x'), null);
    assert.match(guard.malformed('x') ?? '', /3 tool calls in a row/);
  });

  it('an A, B, A, B oscillation trips at the fourth call', async () => {
    const a = { name: 'list_dir', arguments: { path: '.' } };
    const b = { name: 'memory_search', arguments: { query: 'x' } };
    const guard = new LoopGuard();
    assert.equal(guard.check(a.name, a.arguments), null);
    assert.equal(guard.check(b.name, b.arguments), null);
    assert.equal(guard.check(a.name, a.arguments), null);
    assert.match(guard.check(b.name, b.arguments) ?? '', /alternated/);

    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: [a, b, a, b, a] }, { text: 'ok' }]) } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const result = await pepe.run({ agent: 'a', text: 'go' });
    assert.equal(result.status, 'loop_guard');
    const results = toolMessages(result.messages);
    assert.match(results[3]!.content, /loop guard/);
    assert.match(results[4]!.content, /not run: tool use was stopped/);
  });
});
