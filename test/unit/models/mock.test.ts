import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../src/core/errors.js';
import type { Message } from '../../../src/core/messages.js';
import { createProvider } from '../../../src/core/models/factory.js';
import { ProviderError, collect, type ProviderEvent } from '../../../src/core/models/provider.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pepe-mock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function script(content: unknown, name = 'script.json'): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });

async function events(id: string, messages: Message[]): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const e of createProvider(id, {}, {}).stream({ messages, tools: [] })) out.push(e);
  return out;
}

describe('mock provider', () => {
  it('echoes the last user text as a few deltas, free, then finishes', async () => {
    const evs = await events('mock', [{ role: 'system', content: 'sys' }, user('first'), assistant('x'), user('hello there, Pepe')]);
    const deltas = evs.filter((e) => e.type === 'text_delta');
    assert.ok(deltas.length > 1 && deltas.length <= 5, `${deltas.length} deltas`);
    assert.equal(deltas.map((e) => e.text).join(''), 'You said: hello there, Pepe');
    const usage = evs.find((e) => e.type === 'usage');
    assert.ok(usage && usage.outputTokens > 0);
    assert.deepEqual(evs.at(-1), { type: 'finish', reason: 'stop' });
  });

  it('plays the step given by the number of assistant messages in the prompt', async () => {
    const file = script({
      steps: [
        { tool_calls: [{ name: 'bash', arguments: { command: 'env' } }] },
        { text: 'Checking twice.', tool_calls: [{ name: 'read_file', arguments: { path: 'a' } }, { name: 'list_dir' }] },
        { text: 'All done.' },
      ],
    });
    const id = `mock:${file}`;
    const p = createProvider(id, {}, {});
    assert.equal(p.id, id);

    const step0 = await collect(p.stream({ messages: [user('go')], tools: [] }));
    assert.deepEqual(step0.toolCalls, [{ id: 'call_0_0', name: 'bash', arguments: { command: 'env' } }]);
    assert.equal(step0.text, '');
    assert.equal(step0.finish, 'tool_calls');

    const afterOne: Message[] = [
      user('go'),
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_0_0', name: 'bash', arguments: { command: 'env' } }] },
      { role: 'tool', tool_call_id: 'call_0_0', name: 'bash', content: 'PATH=/bin' },
    ];
    const step1 = await collect(p.stream({ messages: afterOne, tools: [] }));
    assert.equal(step1.text, 'Checking twice.');
    assert.deepEqual(step1.toolCalls, [
      { id: 'call_1_0', name: 'read_file', arguments: { path: 'a' } },
      { id: 'call_1_1', name: 'list_dir', arguments: {} },
    ]);

    const step2 = await collect(p.stream({ messages: [...afterOne, assistant('Checking twice.'), user('ok')], tools: [] }));
    assert.equal(step2.text, 'All done.');
    assert.equal(step2.finish, 'stop');

    // Stateless: asking for step 0 again gives step 0 again.
    assert.deepEqual((await collect(p.stream({ messages: [user('go')], tools: [] }))).toolCalls, step0.toolCalls);
  });

  it('echo_prompt replies with every message as "role: content" lines', async () => {
    const file = script({ steps: [{ echo_prompt: true }] });
    const res = await collect(createProvider(`mock:${file}`, {}, {}).stream({ messages: [{ role: 'system', content: 'Be brief.' }, user('what did I say?')], tools: [] }));
    assert.equal(res.text, 'system: Be brief.\nuser: what did I say?');
  });

  it('behaves like mock past the last step', async () => {
    const file = script({ steps: [{ text: 'only step' }] });
    const res = await collect(createProvider(`mock:${file}`, {}, {}).stream({ messages: [user('one'), assistant('only step'), user('two')], tools: [] }));
    assert.equal(res.text, 'You said: two');
  });

  it('honours chunk_size', async () => {
    const file = script({ steps: [{ text: 'abcdefg', chunk_size: 3 }] });
    const evs = await events(`mock:${file}`, [user('x')]);
    assert.deepEqual(
      evs.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])),
      ['abc', 'def', 'g'],
    );
  });

  it('delay_ms paces the deltas and Stop (abort) ends the call at once', async () => {
    const file = script({ steps: [{ text: 'a slow answer that takes a while', chunk_size: 1, delay_ms: 50 }] });
    const controller = new AbortController();
    const seen: string[] = [];
    const started = Date.now();
    await assert.rejects(
      (async () => {
        for await (const e of createProvider(`mock:${file}`, {}, {}).stream({ messages: [user('x')], tools: [] }, controller.signal)) {
          if (e.type === 'text_delta') seen.push(e.text);
          if (seen.length === 2) controller.abort();
        }
      })(),
      (e: unknown) => e instanceof ProviderError && e.kind === 'aborted',
    );
    assert.deepEqual(seen, ['a', ' ']);
    assert.ok(Date.now() - started < 1000, 'did not play the remaining deltas');
  });

  it('resolves a relative script path against baseDir', async () => {
    script({ steps: [{ text: 'relative works' }] }, 'rel.json');
    const res = await collect(createProvider('mock:rel.json', {}, {}, { baseDir: dir }).stream({ messages: [user('x')], tools: [] }));
    assert.equal(res.text, 'relative works');
  });

  describe('a bad script is a clear error naming the file', () => {
    const cases: [string, unknown, RegExp][] = [
      ['invalid JSON', '{"steps": [', /not valid JSON/],
      ['no steps', { stepz: [] }, /steps: expected an array/],
      ['a typo in a step', { steps: [{ text: 'ok' }, { tool_call: [] }] }, /steps\[1\].*unknown keys tool_call/],
      ['a step with nothing to say', { steps: [{ delay_ms: 5 }] }, /steps\[0\].*needs "text", "tool_calls" or "echo_prompt"/],
      ['a tool call without a name', { steps: [{ tool_calls: [{ arguments: {} }] }] }, /steps\[0\]\.tool_calls\[0\]\.name/],
    ];
    for (const [what, content, pattern] of cases) {
      it(what, () => {
        const file = script(content);
        assert.throws(
          () => createProvider(`mock:${file}`, {}, {}),
          (e: unknown) => e instanceof UsageError && e.message.includes(file) && pattern.test(e.message),
        );
      });
    }

    it('a missing file', () => {
      const file = join(dir, 'nope.json');
      assert.throws(() => createProvider(`mock:${file}`, {}, {}), (e: unknown) => e instanceof UsageError && e.message.includes(file) && /cannot read/.test(e.message));
    });
  });
});
