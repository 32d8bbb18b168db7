import assert from 'node:assert/strict';
import type { PepeConfig } from '../../../src/core/config/schema.js';
import type { Message } from '../../../src/core/messages.js';
import { createProvider } from '../../../src/core/models/factory.js';
import { ProviderError, collect, type ModelProvider, type ProviderEvent } from '../../../src/core/models/provider.js';
import type { RetryPolicy } from '../../../src/core/models/retry.js';
import { fixture, jsonError, splitBytes, sse, startServer, type Reply, type TestServer } from './sse-server.js';

const KEY = 'sk-ant-api03-TESTKEY-0123456789abcdef';

const messages: Message[] = [
  { role: 'system', content: 'You are Pepe.' },
  { role: 'user', content: 'list files' },
  { role: 'assistant', content: 'Sure.', tool_calls: [{ id: 'toolu_1', name: 'bash', arguments: { command: 'ls' } }] },
  { role: 'tool', tool_call_id: 'toolu_1', name: 'bash', content: 'permission denied', is_error: true },
  { role: 'system', content: 'Rule re-injected after compaction.' },
  { role: 'user', content: 'try again' },
];
const tools = [{ name: 'bash', description: 'Run a shell command', inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(replies: Reply[] | ((req: any, n: number) => Reply)): Promise<TestServer> {
  server = await startServer(replies);
  return server;
}

function provider(baseUrl: string, env: Record<string, string | undefined> = { TEST_ANTHROPIC_KEY: KEY }, retry: Partial<RetryPolicy> = { baseDelayMs: 1 }): ModelProvider {
  const config: PepeConfig = {
    models: { claude: { provider: 'anthropic', model: 'claude-sonnet-4-5', base_url: baseUrl, api_key_env: 'TEST_ANTHROPIC_KEY', max_output_tokens: 1024 } },
  };
  return createProvider('claude', config, env, { retry });
}

async function eventsUntilError(events: AsyncIterable<ProviderEvent>): Promise<{ seen: ProviderEvent[]; error: ProviderError }> {
  const seen: ProviderEvent[] = [];
  try {
    for await (const e of events) seen.push(e);
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
    return { seen, error };
  }
  assert.fail('expected the call to fail');
}

describe('Anthropic Messages provider (AI SDK) against a local server', () => {
  it('streams text split across TCP writes, skipping pings, with usage from message_start and message_delta', async () => {
    const s = await serve([sse(splitBytes(fixture('anthropic-text.sse'), 9))]);
    const events: ProviderEvent[] = [];
    for await (const e of provider(s.baseUrl).stream({ messages, tools })) events.push(e);
    assert.equal(events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join(''), 'Olá, mundo 🌍!');
    assert.deepEqual(events.slice(-2), [
      { type: 'usage', inputTokens: 25, outputTokens: 15 },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('sends x-api-key, the API version, one system prompt and the conversation as Messages blocks', async () => {
    const s = await serve([sse([fixture('anthropic-text.sse')])]);
    await collect(provider(s.baseUrl).stream({ messages, tools }));
    const req = s.requests[0]!;
    assert.equal(req.url, '/v1/messages');
    assert.equal(req.headers['x-api-key'], KEY);
    assert.equal(req.headers.authorization, undefined);
    assert.ok(req.headers['anthropic-version']);
    assert.equal(req.body.model, 'claude-sonnet-4-5');
    assert.equal(req.body.stream, true);
    assert.equal(req.body.max_tokens, 1024);
    // Both system messages, including the late one, end up in the single system prompt.
    assert.deepEqual(
      req.body.system.map((b: any) => b.text).join('\n'),
      'You are Pepe.\n\nRule re-injected after compaction.',
    );
    assert.deepEqual(
      req.body.messages.map((m: any) => m.role),
      ['user', 'assistant', 'user'],
    );
    const [, assistant, lastUser] = req.body.messages;
    assert.deepEqual(
      assistant.content.map((c: any) => c.type),
      ['text', 'tool_use'],
    );
    assert.deepEqual(assistant.content[1].input, { command: 'ls' });
    assert.equal(lastUser.content[0].type, 'tool_result');
    assert.equal(lastUser.content[0].tool_use_id, 'toolu_1');
    assert.equal(lastUser.content[0].is_error, true);
    assert.equal(req.body.tools[0].name, 'bash');
    assert.deepEqual(req.body.tools[0].input_schema.required, ['command']);
  });

  it('assembles input_json_delta pieces into one tool call', async () => {
    const s = await serve([sse(splitBytes(fixture('anthropic-tool-use.sse'), 11))]);
    const res = await collect(provider(s.baseUrl).stream({ messages, tools }));
    assert.equal(res.text, 'Let me check the files.');
    assert.deepEqual(res.toolCalls, [{ id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'bash', arguments: { command: 'ls -la' } }]);
    assert.equal(res.finish, 'tool_calls');
    assert.deepEqual(res.usage, { inputTokens: 472, outputTokens: 89 });
  });

  it('surfaces an error event after the first token, without retrying', async () => {
    const s = await serve([sse([fixture('anthropic-error-midstream.sse')]), sse([fixture('anthropic-text.sse')])]);
    const { seen, error } = await eventsUntilError(provider(s.baseUrl).stream({ messages, tools }));
    assert.deepEqual(seen, [{ type: 'text_delta', text: 'Partial' }]);
    assert.equal(error.kind, 'stream');
    assert.match(error.message, /overloaded_error/);
    assert.equal(s.requests.length, 1);
  });

  it('retries an overloaded error event that arrives before the first token', async () => {
    const s = await serve([sse([fixture('anthropic-overloaded-first.sse')]), sse([fixture('anthropic-text.sse')])]);
    const kinds: string[] = [];
    const res = await collect(provider(s.baseUrl, undefined, { baseDelayMs: 1, onRetry: (r) => kinds.push(`${r.error.kind}:${r.error.status}`) }).stream({ messages, tools }));
    assert.equal(res.text, 'Olá, mundo 🌍!');
    assert.deepEqual(kinds, ['http:529']);
    assert.equal(s.requests.length, 2);
  });

  it('retries a 429 with Retry-After, then succeeds', async () => {
    const s = await serve([
      jsonError(429, { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } }, { 'retry-after': '0' }),
      sse([fixture('anthropic-text.sse')]),
    ]);
    const delays: number[] = [];
    const res = await collect(provider(s.baseUrl, undefined, { baseDelayMs: 60_000, onRetry: (r) => delays.push(r.delayMs) }).stream({ messages, tools }));
    assert.equal(res.text, 'Olá, mundo 🌍!');
    assert.deepEqual(delays, [0]);
  });

  it('keeps the key out of a 401 message that echoes it', async () => {
    const s = await serve((req) => jsonError(401, { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${String(req.headers['x-api-key'])}` } }));
    const { error } = await eventsUntilError(provider(s.baseUrl).stream({ messages, tools }));
    assert.equal(error.kind, 'auth');
    assert.equal(error.status, 401);
    assert.match(error.message, /invalid x-api-key/);
    assert.ok(!error.message.includes(KEY), error.message);
    assert.ok(!String(error.stack).includes(KEY));
    assert.equal(s.requests.length, 1);
  });

  it('fails before any request when the key variable is unset', async () => {
    const s = await serve([sse([fixture('anthropic-text.sse')])]);
    const { error } = await eventsUntilError(provider(s.baseUrl, {}).stream({ messages, tools }));
    assert.equal(error.kind, 'auth');
    assert.match(error.message, /no API key stored for TEST_ANTHROPIC_KEY/);
    assert.equal(s.requests.length, 0);
  });

  it('aborts mid-stream', async () => {
    const head = fixture('anthropic-text.sse').split('\n\n').slice(0, 4).join('\n\n') + '\n\n';
    const s = await serve([sse([head], 'hang')]);
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const e of provider(s.baseUrl).stream({ messages, tools }, controller.signal)) {
          seen.push(e);
          controller.abort();
        }
      })(),
      (e: unknown) => e instanceof ProviderError && e.kind === 'aborted',
    );
    assert.deepEqual(seen, [{ type: 'text_delta', text: 'Olá' }]);
  });
});
