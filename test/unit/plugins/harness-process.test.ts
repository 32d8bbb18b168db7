/**
 * The harness slot out of process (spec 3.3, revised): a harness that loops, exits or ignores a
 * cancel costs its turn, never the host; its `opts.onEvent` events stream back while it runs.
 */
import assert from 'node:assert/strict';
import { collectEvents } from '../helpers/agents.js';
import { TempHome, TickMonitor } from '../helpers/home.js';

const harness = (name: string, body: string) =>
  [`export function name() { return '${name}'; }`, `export function slot() { return 'harness'; }`, `export async function run(agent, messages, opts) { ${body} }`, ''].join('\n');

describe('harness plugin in its own process', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  async function pepeWith(name: string, body: string, deadlineMs = 600) {
    home.writePlugin(`${name}.mjs`, harness(name, body));
    home.writeConfig({ agents: { a: { model: 'mock', slots: { harness: name } } }, slot_deadlines_ms: { harness: deadlineMs } });
    const pepe = await home.pepe({ workspace: home.dir });
    await pepe.pluginList();
    return pepe;
  }

  it('streams its onEvent deltas and answers the turn', async () => {
    const pepe = await pepeWith('streamer', `
      for (const t of ['one ', 'two ', 'three']) opts.onEvent({ type: 'assistant_delta', text: t });
      return { content: 'one two three', messages: [...messages, { role: 'assistant', content: 'one two three' }] };`);
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'count', onEvent });
    assert.equal(result.status, 'ok', result.error);
    assert.equal(result.content, 'one two three');
    const deltas = events.filter((e) => e.type === 'assistant_delta').map((e) => (e as { text: string }).text);
    assert.deepEqual(deltas, ['one ', 'two ', 'three']);
  });

  it('a synchronous loop is stopped at the deadline: the turn fails, the host keeps ticking', async () => {
    const pepe = await pepeWith('looper', 'for (;;) {}');
    const monitor = new TickMonitor();
    const started = performance.now();
    const result = await pepe.run({ agent: 'a', text: 'go' });
    const elapsed = performance.now() - started;
    monitor.stop();
    assert.equal(result.status, 'error');
    assert.match(result.error ?? '', /harness "looper" failed \(timeout\)/);
    assert.ok(elapsed < 600 + 1500, `took ${elapsed.toFixed(0)} ms`);
    assert.ok(monitor.maxBlockedMs < 300, `host blocked for ${monitor.maxBlockedMs.toFixed(0)} ms (longest gap ${monitor.maxGapMs.toFixed(0)} ms)`);
  });

  it('process.exit ends only its own process; the next turn gets a fresh one', async () => {
    const pepe = await pepeWith('quitter', `
      if (messages[messages.length - 1].content === 'exit') process.exit(7);
      return { content: 'still here', messages };`, 5000);
    const first = await pepe.run({ agent: 'a', text: 'exit' });
    assert.equal(first.status, 'error');
    assert.match(first.error ?? '', /exited \(code 7\)/);
    const second = await pepe.run({ agent: 'a', text: 'hello' });
    assert.equal(second.status, 'ok', second.error);
    assert.equal(second.content, 'still here');
  });

  it('cancelling the turn aborts opts.signal in the harness process', async () => {
    const pepe = await pepeWith('waiter', `
      await new Promise((resolve) => opts.signal.addEventListener('abort', resolve));
      return { content: 'stopped: ' + opts.signal.aborted, messages };`, 10_000);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const started = performance.now();
    const result = await pepe.run({ agent: 'a', text: 'wait', signal: ac.signal });
    assert.ok(performance.now() - started < 3000, 'the harness stopped when asked');
    // However the runtime words a cancelled turn, the harness saw the abort and returned.
    assert.ok(result.content === 'stopped: true' || result.status !== 'ok', JSON.stringify(result));
  });

  it('a harness that ignores the cancel is ended after a short grace', async () => {
    const pepe = await pepeWith('stubborn', 'return new Promise(() => {});', 20_000);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const started = performance.now();
    const result = await pepe.run({ agent: 'a', text: 'wait', signal: ac.signal });
    assert.ok(performance.now() - started < 4000, `took ${(performance.now() - started).toFixed(0)} ms`);
    assert.notEqual(result.status, 'ok');
  });

  it('requests to the turn (tools, model) go over the RPC; refused when the turn offers none', async () => {
    const pepe = await pepeWith('caller', `
      const tool = await opts.tools.call('read_file', { path: 'a.txt' });
      const reply = await opts.model.complete([{ role: 'user', content: 'hi' }]);
      return { content: JSON.stringify({ tool, reply }), messages };`, 5000);
    const info = (await pepe['registry'].list()).find((p) => p.name === 'caller')!;
    const harness = pepe['registry'].harnessPlugin(info, 5000);
    const asked: unknown[] = [];
    const result = (await harness.run({ name: 'a' }, [], {
      tools: { call: async (name, args) => (asked.push([name, args]), { content: 'file text', isError: false }) },
      model: { complete: async (messages) => ({ content: `model saw ${messages.length}` }) },
    })) as { content: string };
    assert.deepEqual(JSON.parse(result.content), { tool: { content: 'file text', isError: false }, reply: { content: 'model saw 1' } });
    assert.deepEqual(asked, [['read_file', { path: 'a.txt' }]]);
    // Through a turn, which offers neither yet: the harness sees a clear refusal.
    const turn = await pepe.run({ agent: 'a', text: 'go' });
    assert.equal(turn.status, 'error');
    assert.match(turn.error ?? '', /tools\.call is not available to this harness/);
  });
});
