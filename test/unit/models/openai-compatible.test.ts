import assert from 'node:assert/strict';
import type { ModelConfig, PepeConfig } from '../../../src/core/config/schema.js';
import type { Message } from '../../../src/core/messages.js';
import { createProvider } from '../../../src/core/models/factory.js';
import { ProviderError, collect, type ModelProvider, type ProviderEvent } from '../../../src/core/models/provider.js';
import type { RetryPolicy } from '../../../src/core/models/retry.js';
import { fixture, jsonError, splitBytes, sse, startServer, type Reply, type TestServer } from './sse-server.js';

const KEY = 'sk-test-0123456789abcdefSECRET';
const FAST_RETRY: Partial<RetryPolicy> = { baseDelayMs: 1, maxRetries: 2 };

const messages: Message[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'list files' },
  { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'bash', arguments: { command: 'ls' } }] },
  { role: 'tool', tool_call_id: 'call_1', name: 'bash', content: 'README.md' },
  { role: 'user', content: 'thanks' },
];
const tools = [{ name: 'bash', description: 'Run a shell command', inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function provider(baseUrl: string, opts: { env?: Record<string, string | undefined>; retry?: Partial<RetryPolicy>; model?: Partial<ModelConfig> } = {}): ModelProvider {
  const config: PepeConfig = {
    models: { fast: { provider: 'openai-compatible', model: 'gpt-4o-mini', base_url: baseUrl, api_key_env: 'TEST_OPENAI_KEY', ...opts.model } },
  };
  return createProvider('fast', config, opts.env ?? { TEST_OPENAI_KEY: KEY }, { retry: opts.retry ?? FAST_RETRY });
}

async function serve(replies: Reply[] | ((req: any, n: number) => Reply)): Promise<TestServer> {
  server = await startServer(replies);
  return server;
}

/** Runs a call and returns the events seen before it failed, plus the error. */
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

describe('OpenAI-compatible provider (AI SDK) against a local server', () => {
  it('streams a recorded response split across TCP writes, with usage from the final chunk', async () => {
    const s = await serve([sse(splitBytes(fixture('openai-text.sse'), 7))]);
    const events: ProviderEvent[] = [];
    for await (const e of provider(s.baseUrl).stream({ messages, tools })) events.push(e);

    const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('');
    assert.equal(text, 'Olá, mundo 🌍!');
    assert.ok(events.filter((e) => e.type === 'text_delta').length >= 3, 'text arrives as several deltas');
    assert.deepEqual(events.slice(-2), [
      { type: 'usage', inputTokens: 19, outputTokens: 10 },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('sends the key as a Bearer token and the conversation, tools and stream options in the body', async () => {
    const s = await serve([sse([fixture('openai-text.sse')])]);
    await collect(provider(s.baseUrl, { model: { max_output_tokens: 321 } }).stream({ messages, tools }));

    const req = s.requests[0]!;
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/v1/chat/completions');
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.equal(req.body.model, 'gpt-4o-mini');
    assert.equal(req.body.stream, true);
    assert.deepEqual(req.body.stream_options, { include_usage: true });
    assert.equal(req.body.max_tokens, 321);
    assert.deepEqual(
      req.body.messages.map((m: any) => m.role),
      ['system', 'user', 'assistant', 'tool', 'user'],
    );
    assert.equal(req.body.messages[2].tool_calls[0].function.name, 'bash');
    assert.deepEqual(JSON.parse(req.body.messages[2].tool_calls[0].function.arguments), { command: 'ls' });
    assert.equal(req.body.messages[3].tool_call_id, 'call_1');
    assert.equal(req.body.messages[3].content, 'README.md');
    assert.equal(req.body.tools[0].type, 'function');
    assert.equal(req.body.tools[0].function.name, 'bash');
    assert.deepEqual(req.body.tools[0].function.parameters.required, ['command']);
  });

  it('assembles tool-call argument deltas spread over chunks, by index', async () => {
    const s = await serve([sse(splitBytes(fixture('openai-tool-calls.sse'), 13))]);
    const res = await collect(provider(s.baseUrl).stream({ messages, tools }));
    assert.deepEqual(res.toolCalls, [
      { id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'bash', arguments: { command: 'ls -la' } },
      { id: 'call_ABaN2xxxQ1F9zJe3mzrKDjpV', name: 'read_file', arguments: { path: 'README.md' } },
    ]);
    assert.equal(res.finish, 'tool_calls');
    assert.deepEqual(res.usage, { inputTokens: 82, outputTokens: 47 });
  });

  it('passes unparsable tool arguments through as the raw string', async () => {
    const s = await serve([sse([fixture('openai-tool-bad-args.sse')])]);
    const res = await collect(provider(s.baseUrl).stream({ messages, tools }));
    assert.deepEqual(res.toolCalls, [{ id: 'call_bad', name: 'bash', arguments: '{"command": ' }]);
  });

  it('reports tool_calls even when the server (Ollama-style) says "stop"', async () => {
    const s = await serve([sse([fixture('ollama-tool-calls-stop.sse')])]);
    const res = await collect(provider(s.baseUrl, { env: {}, model: { api_key_env: undefined } }).stream({ messages, tools }));
    assert.deepEqual(res.toolCalls, [{ id: 'call_x1y2z3w4', name: 'bash', arguments: { command: 'env' } }]);
    assert.equal(res.finish, 'tool_calls');
    assert.deepEqual(res.usage, { inputTokens: 150, outputTokens: 18 });
    assert.equal(s.requests[0]!.headers.authorization, undefined, 'no key configured, none sent');
  });

  it('ignores keep-alive comments (OpenRouter) and takes usage from the chunk that finishes', async () => {
    const s = await serve([sse(splitBytes(fixture('openrouter-keepalive.sse'), 5))]);
    const res = await collect(provider(s.baseUrl).stream({ messages, tools: [] }));
    assert.equal(res.text, 'Hi there');
    assert.deepEqual(res.usage, { inputTokens: 8, outputTokens: 2 });
    assert.equal(res.finish, 'stop');
    assert.equal(s.requests[0]!.body.tools, undefined, 'no tools offered when there are none');
  });

  it('surfaces an error event after the first token, without retrying', async () => {
    const s = await serve([sse([fixture('openai-error-midstream.sse')]), sse([fixture('openai-text.sse')])]);
    const { seen, error } = await eventsUntilError(provider(s.baseUrl).stream({ messages, tools }));
    assert.deepEqual(seen, [{ type: 'text_delta', text: 'Partial' }]);
    assert.equal(error.kind, 'stream');
    assert.match(error.message, /server had an error/);
    assert.equal(s.requests.length, 1);
  });

  it('retries an error event that arrives before the first token', async () => {
    const s = await serve([sse([fixture('openai-error-first.sse')]), sse([fixture('openai-text.sse')])]);
    const res = await collect(provider(s.baseUrl).stream({ messages, tools }));
    assert.equal(res.text, 'Olá, mundo 🌍!');
    assert.equal(s.requests.length, 2);
  });

  it('retries a 429 with Retry-After: 0 before the first token, honouring the header over the backoff', async () => {
    const s = await serve([
      jsonError(429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '0' }),
      sse([fixture('openai-text.sse')]),
    ]);
    const retries: { attempt: number; delayMs: number; kind: string }[] = [];
    const started = Date.now();
    const res = await collect(
      provider(s.baseUrl, { retry: { baseDelayMs: 60_000, onRetry: (r) => retries.push({ attempt: r.attempt, delayMs: r.delayMs, kind: r.error.kind }) } }).stream({ messages, tools }),
    );
    assert.equal(res.text, 'Olá, mundo 🌍!');
    assert.equal(s.requests.length, 2);
    assert.deepEqual(retries, [{ attempt: 1, delayMs: 0, kind: 'rate_limit' }]);
    assert.ok(Date.now() - started < 5_000, 'the 60 s base backoff was not used');
  });

  it('caps a long Retry-After', async () => {
    const s = await serve([jsonError(503, { error: { message: 'busy' } }, { 'retry-after': '3600' }), sse([fixture('openai-text.sse')])]);
    const delays: number[] = [];
    await collect(provider(s.baseUrl, { retry: { baseDelayMs: 1, maxDelayMs: 20, onRetry: (r) => delays.push(r.delayMs) } }).stream({ messages, tools }));
    assert.deepEqual(delays, [20]);
  });

  it('retries 408/5xx with backoff and gives up after maxRetries with a retryable http error', async () => {
    const s = await serve([
      jsonError(500, { error: { message: 'boom 1' } }),
      jsonError(408, { error: { message: 'timeout' } }),
      jsonError(502, { error: { message: 'bad gateway' } }),
    ]);
    const delays: number[] = [];
    const { seen, error } = await eventsUntilError(provider(s.baseUrl, { retry: { baseDelayMs: 1, maxRetries: 2, onRetry: (r) => delays.push(r.delayMs) } }).stream({ messages, tools }));
    assert.deepEqual(seen, []);
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 502);
    assert.equal(error.retryable, true);
    assert.match(error.message, /model "fast": HTTP 502/);
    assert.deepEqual(delays, [1, 2], 'exponential backoff from the injected base');
    assert.equal(s.requests.length, 3);
  });

  it('does not retry a 400', async () => {
    const s = await serve([jsonError(400, { error: { message: 'bad request: unknown parameter' } }), sse([fixture('openai-text.sse')])]);
    const { error } = await eventsUntilError(provider(s.baseUrl).stream({ messages, tools }));
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 400);
    assert.equal(error.retryable, false);
    assert.equal(s.requests.length, 1);
  });

  it('never retries once a token was emitted: a connection cut after a delta surfaces after one request', async () => {
    const first = fixture('openai-text.sse').split('\n\n').slice(0, 2).join('\n\n') + '\n\n';
    const s = await serve([sse([first], 'destroy'), sse([fixture('openai-text.sse')])]);
    const { seen, error } = await eventsUntilError(provider(s.baseUrl).stream({ messages, tools }));
    assert.deepEqual(seen, [{ type: 'text_delta', text: 'Olá' }]);
    assert.equal(error.kind, 'network');
    assert.equal(error.retryable, true, 'retryable in itself, yet not retried: a token was already shown');
    assert.equal(s.requests.length, 1);
  });

  it('retries a connection cut before the first token', async () => {
    const s = await serve([sse([': keep-alive\n\n'], 'destroy'), sse([fixture('openai-text.sse')])]);
    const res = await collect(provider(s.baseUrl).stream({ messages, tools }));
    assert.equal(res.text, 'Olá, mundo 🌍!');
    assert.equal(s.requests.length, 2);
  });

  it('aborts a stalled stream when the signal fires', async () => {
    const first = fixture('openai-text.sse').split('\n\n').slice(0, 2).join('\n\n') + '\n\n';
    const s = await serve([sse([first], 'hang')]);
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    const started = Date.now();
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
    assert.ok(Date.now() - started < 5_000);
  });

  it('aborts during a retry wait', async () => {
    const s = await serve([jsonError(429, { error: { message: 'slow down' } }, { 'retry-after': '10' })]);
    const controller = new AbortController();
    const call = collect(provider(s.baseUrl, { retry: { maxDelayMs: 60_000, onRetry: () => setTimeout(() => controller.abort(), 10) } }).stream({ messages, tools }, controller.signal));
    const started = Date.now();
    await assert.rejects(call, (e: unknown) => e instanceof ProviderError && e.kind === 'aborted');
    assert.ok(Date.now() - started < 5_000, 'did not wait out the 10 s Retry-After');
    assert.equal(s.requests.length, 1);
  });

  it('keeps the key out of error messages even when the server echoes it', async () => {
    const s = await serve((req) => jsonError(401, { error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
    const { error } = await eventsUntilError(provider(s.baseUrl).stream({ messages, tools }));
    assert.equal(error.kind, 'auth');
    assert.equal(error.status, 401);
    assert.equal(error.retryable, false);
    assert.match(error.message, /Incorrect API key provided/);
    assert.ok(!error.message.includes(KEY), error.message);
    assert.ok(!String(error.stack).includes(KEY));
    assert.ok(!JSON.stringify({ ...error }).includes(KEY), 'no field carries it either');
    assert.equal(s.requests.length, 1);
  });

  it('fails before any request when the key variable is unset, naming the variable', async () => {
    const s = await serve([sse([fixture('openai-text.sse')])]);
    const { error } = await eventsUntilError(provider(s.baseUrl, { env: {} }).stream({ messages, tools }));
    assert.equal(error.kind, 'auth');
    assert.match(error.message, /no API key stored for TEST_OPENAI_KEY/);
    assert.equal(error.keyEnv, 'TEST_OPENAI_KEY');
    assert.equal(s.requests.length, 0);
  });

  it('reads the key from the env object at call time', async () => {
    const s = await serve([sse([fixture('openai-text.sse')]), sse([fixture('openai-text.sse')])]);
    const env: Record<string, string | undefined> = { TEST_OPENAI_KEY: 'key-one-1234567890' };
    const p = provider(s.baseUrl, { env });
    await collect(p.stream({ messages, tools }));
    env.TEST_OPENAI_KEY = 'key-two-1234567890';
    await collect(p.stream({ messages, tools }));
    assert.deepEqual(
      s.requests.map((r) => r.headers.authorization),
      ['Bearer key-one-1234567890', 'Bearer key-two-1234567890'],
    );
  });

  it('reports a refused connection as a network error, without retrying', async () => {
    const s = await serve([]);
    const baseUrl = s.baseUrl;
    await s.close();
    server = undefined;
    const retried: number[] = [];
    const { error } = await eventsUntilError(provider(baseUrl, { retry: { baseDelayMs: 1, onRetry: (r) => retried.push(r.attempt) } }).stream({ messages, tools }));
    assert.equal(error.kind, 'network');
    // Names the configured endpoint and what to check, not just a host.
    assert.ok(error.message.includes(`cannot connect to ${baseUrl}`), error.message);
    assert.match(error.message, /check that the server is running.*base_url/);
    assert.deepEqual(retried, []);
  });
});
