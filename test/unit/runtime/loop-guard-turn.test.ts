import assert from 'node:assert/strict';
import type { AssistantMessage, ToolMessage } from '../../../src/core/messages.js';
import { collectEvents, script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/**
 * The loop guard ends the turn, not only its tool use: once it trips, the model gets one last
 * call without tools (the loop guard's message is in the tool results it reads) and whatever it
 * answers ends the turn. A model that keeps asking for tools does not burn model calls up to
 * limits.max_steps.
 */
describe('the loop guard ends the turn with one last call without tools', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const call = { name: 'list_dir', arguments: { path: '.' } };

  // failed against bfd1589: 21 model calls (every step of the script, then its echo), not 4.
  it('a model that keeps asking for the same call: 3 calls with tools, 1 without, then the turn ends', async () => {
    const steps = Array.from({ length: 20 }, () => ({ tool_calls: [call] }));
    home.writeConfig({ agents: { a: { model: script(home, 'a', steps) } }, limits: { max_steps: 30 } });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'loop', onEvent });
    assert.equal(events.filter((e) => e.type === 'assistant_message').length, 4, 'model calls');
    assert.equal(result.status, 'loop_guard');
    // The last answer's tool requests are dropped: no tool call in the transcript is left without a result.
    const saved = pepe.sessionLoad('a', result.sessionId).messages;
    const calls = saved.flatMap((m) => (m.role === 'assistant' ? (m as AssistantMessage).tool_calls ?? [] : []));
    const answered = new Set(saved.filter((m): m is ToolMessage => m.role === 'tool').map((m) => m.tool_call_id));
    assert.equal(calls.length, 3);
    for (const c of calls) assert.ok(answered.has(c.id), `tool call ${c.id} has a result`);
    assert.ok(events.some((e) => e.type === 'error' && /loop guard/.test(e.message)), 'the person is told');
  });

  it('the last call is told why: the loop guard message is in its prompt', async () => {
    const steps = [{ tool_calls: [call] }, { tool_calls: [call] }, { tool_calls: [call] }, { echo_prompt: true as const }, { text: 'never reached' }];
    home.writeConfig({ agents: { a: { model: script(home, 'a', steps) } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'loop', onEvent });
    assert.equal(events.filter((e) => e.type === 'assistant_message').length, 4);
    assert.match(result.content, /loop guard: list_dir was called with the same arguments 3 times in a row; tool use stopped/);
  });

  // failed against bfd1589: 5 model calls (the fourth asked for tools again and was answered "not run").
  it('a guard that trips in the middle of a message: the calls after it are answered "not run", then one last call', async () => {
    const other = { name: 'list_dir', arguments: { path: 'x' } };
    const steps = [{ tool_calls: [call] }, { tool_calls: [call] }, { tool_calls: [call, other] }, { tool_calls: [other] }, { text: 'never reached' }];
    home.writeConfig({ agents: { a: { model: script(home, 'a', steps) } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'loop', onEvent });
    assert.equal(events.filter((e) => e.type === 'assistant_message').length, 4);
    const tools = result.messages.filter((m): m is ToolMessage => m.role === 'tool');
    assert.match(tools.at(-1)!.content, /not run: tool use was stopped/);
    assert.equal(result.status, 'loop_guard');
  });
});
