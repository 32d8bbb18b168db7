import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { batches } from '../../../src/core/runtime/turn-loop.js';
import { collectEvents, script, ScriptedPrompter } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/** A web_search endpoint that answers after `delayMs`, echoing the query; it remembers when each request came and went. */
export async function slowSearchServer(delayMs: number) {
  const spans: { q: string; start: number; end: number }[] = [];
  const server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('q') ?? '';
    const start = Date.now();
    setTimeout(() => {
      spans.push({ q, start, end: Date.now() });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ Heading: q, AbstractText: `about ${q}`, AbstractURL: `https://example.test/${q}` }));
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, spans, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const search = (query: string) => ({ name: 'web_search', arguments: { query } });

describe('independent read-only tool calls of one message run concurrently', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('batches: runs of read-only calls together, every other call alone, in order', () => {
    const names = (b: { name: string }[][]) => b.map((x) => x.map((c) => c.name).join('+'));
    assert.deepEqual(names(batches([{ name: 'web_search' }, { name: 'read_file' }, { name: 'write_file' }, { name: 'web_search' }, { name: 'bash' }, { name: 'bash' }])), ['web_search+read_file', 'write_file', 'web_search', 'bash', 'bash']);
  });

  it('three 300 ms web searches in one message take about 300 ms, results in the model\'s order', async () => {
    const slow = await slowSearchServer(300);
    try {
      home.writeConfig({ web_search: { endpoint: slow.url }, agents: { a: { model: script(home, 'a', [{ tool_calls: [search('one'), search('two'), search('three')] }, { text: 'done' }]) } } });
      const pepe = await home.pepe({ workspace: home.dir });
      const { onEvent, events } = collectEvents();
      const started = Date.now();
      const result = await pepe.run({ agent: 'a', text: 'go', onEvent });
      const took = Date.now() - started;
      assert.equal(result.status, 'ok');
      assert.ok(took < 700, `three 300 ms searches took ${took} ms`);
      const results = events.filter((e) => e.type === 'tool_result').map((e) => (e.type === 'tool_result' ? e.content : ''));
      assert.equal(results.length, 3);
      results.forEach((content, i) => assert.match(content, new RegExp(`about ${['one', 'two', 'three'][i]}`)));
      const tools = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      tools.forEach((content, i) => assert.match(content, new RegExp(`about ${['one', 'two', 'three'][i]}`)));
    } finally {
      await slow.close();
    }
  });

  it('a write is a barrier: the reads after it start only when it is done, then together', async () => {
    const slow = await slowSearchServer(150);
    try {
      const calls = [{ name: 'write_file', arguments: { path: 'note.txt', content: 'x' } }, search('after1'), search('after2')];
      home.writeConfig({ web_search: { endpoint: slow.url }, agents: { a: { model: script(home, 'a', [{ tool_calls: calls }, { text: 'done' }]) } } });
      const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
      const pepe = await home.pepe({ workspace: home.workspace, prompter });
      let writeDecidedAt = 0;
      const result = await pepe.run({ agent: 'a', text: 'go', onEvent: (e) => void (e.type === 'tool_result' && e.name === 'write_file' && (writeDecidedAt = Date.now())) });
      assert.equal(result.status, 'ok');
      const span = (q: string) => slow.spans.find((s) => s.q === q)!;
      assert.ok(span('after1').start >= writeDecidedAt && span('after2').start >= writeDecidedAt, 'the reads after the write waited for it');
      assert.ok(Math.abs(span('after1').start - span('after2').start) < 100, 'the two reads after it overlapped');
      assert.equal(prompter.requests.length, 1);
    } finally {
      await slow.close();
    }
  });

  it('prompts are shown one at a time even when calls run side by side', async () => {
    let open = 0;
    let most = 0;
    const prompter = {
      interactive: true,
      async ask() {
        open++;
        most = Math.max(most, open);
        await new Promise((r) => setTimeout(r, 50));
        open--;
        return { kind: 'deny' as const, reason: 'no' };
      },
    };
    home.writeConfig({ agents: { a: { model: 'mock' }, b: { model: script(home, 'b', [{ tool_calls: [{ name: 'write_file', arguments: { path: 'x', content: '1' } }] }, { text: 'ok' }]) }, c: { model: script(home, 'c', [{ tool_calls: [{ name: 'write_file', arguments: { path: 'y', content: '1' } }] }, { text: 'ok' }]) } } });
    const pepe = await home.pepe({ workspace: home.workspace, prompter });
    await Promise.all([pepe.run({ agent: 'b', text: 'go' }), pepe.run({ agent: 'c', text: 'go' })]);
    assert.equal(most, 1, 'never two questions at once');
  });
});
