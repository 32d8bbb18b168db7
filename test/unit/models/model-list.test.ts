import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listModels, MAX_MODELS } from '../../../src/core/models/model-list.js';
import { jsonError, startServer, type TestServer } from './sse-server.js';

const KEY = 'sk-list-0123456789SECRET';
const json = (body: unknown) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('listModels (the model setup form\'s list)', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reads an OpenAI-compatible GET /models with the key as a bearer token', async () => {
    server = await startServer([json({ object: 'list', data: [{ id: 'llama3.2' }, { id: 'qwen2.5:7b' }] })]);
    const result = await listModels({ provider: 'openai-compatible', baseUrl: server.baseUrl, apiKey: KEY });
    assert.deepEqual(result, { ok: true, models: ['llama3.2', 'qwen2.5:7b'], source: `${server.baseUrl}/models` });
    assert.equal(server.requests[0]!.method, 'GET');
    assert.equal(server.requests[0]!.url, '/v1/models');
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`);
  });

  it('falls back to Ollama\'s /api/tags at the server root', async () => {
    server = await startServer((req) => (req.url === '/api/tags' ? json({ models: [{ name: 'llama3.2:latest' }] }) : jsonError(404, { error: 'not found' })));
    const result = await listModels({ provider: 'openai-compatible', baseUrl: server.baseUrl });
    assert.deepEqual(result, { ok: true, models: ['llama3.2:latest'], source: `http://127.0.0.1:${server.port}/api/tags` });
    assert.equal(server.requests[0]!.headers.authorization, undefined, 'no key, no header');
  });

  it('Anthropic: x-api-key and anthropic-version, no bearer token', async () => {
    server = await startServer([json({ data: [{ id: 'claude-sonnet-4-5', type: 'model' }], has_more: false })]);
    const result = await listModels({ provider: 'anthropic', baseUrl: server.baseUrl, apiKey: KEY });
    assert.ok(result.ok && result.models[0] === 'claude-sonnet-4-5');
    assert.equal(server.requests[0]!.headers['x-api-key'], KEY);
    assert.equal(server.requests[0]!.headers['anthropic-version'], '2023-06-01');
    assert.equal(server.requests[0]!.headers.authorization, undefined);
  });

  it('a refused key is said in words, and the key is not in the message', async () => {
    server = await startServer([jsonError(401, { error: { message: `bad key ${KEY}` } })]);
    const result = await listModels({ provider: 'openai', baseUrl: server.baseUrl, apiKey: KEY });
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.message : '', /HTTP 401 \(the key was refused\)/);
    assert.ok(!JSON.stringify(result).includes(KEY));
  });

  it('hostile lists: ids with control characters, markup or absurd length are dropped; duplicates once; at most MAX_MODELS', async () => {
    const many = Array.from({ length: MAX_MODELS + 50 }, (_, i) => ({ id: `m${i}` }));
    server = await startServer([json({ data: [{ id: 'ok-1' }, { id: 'ok-1' }, { id: 'evil\u001b[2J' }, { id: '<img src=x onerror=alert(1)>' }, { id: 'x'.repeat(300) }, { id: '' }, ...many] })]);
    const result = await listModels({ provider: 'openai-compatible', baseUrl: server.baseUrl });
    assert.ok(result.ok);
    assert.equal(result.models[0], 'ok-1');
    assert.equal(result.models.length, MAX_MODELS);
    assert.ok(result.models.every((m) => /^[A-Za-z0-9][A-Za-z0-9_.:/@+-]*$/.test(m) && m.length <= 200));
  });

  it('a body that is not a list, or not JSON, is no list (no throw)', async () => {
    server = await startServer((req) => (req.url === '/v1/models' ? { status: 200, body: 'not json' } : json({ nothing: true })));
    const result = await listModels({ provider: 'openai-compatible', baseUrl: server.baseUrl });
    assert.equal(result.ok, false);
  });

  it('a body over the cap is cut off', async () => {
    const big: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      const piece = Buffer.from('{"id":"a"},'.repeat(10_000));
      let sent = 0;
      const pump = () => {
        while (sent < 3 * 1024 * 1024) {
          sent += piece.length;
          if (!res.write(piece)) return void res.once('drain', pump);
        }
        res.end('{"id":"z"}]}');
      };
      pump();
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    try {
      const port = (big.address() as AddressInfo).port;
      const result = await listModels({ provider: 'openai', baseUrl: `http://127.0.0.1:${port}/v1` });
      assert.equal(result.ok, false);
      assert.match(!result.ok ? result.message : '', /larger than/);
    } finally {
      big.closeAllConnections();
      await new Promise<void>((r) => big.close(() => r()));
    }
  });

  it('a redirect is not followed (the key would go to another host)', async () => {
    server = await startServer((req) => (req.url === '/v1/models' ? { status: 302, headers: { location: '/elsewhere' }, body: '' } : jsonError(404, {})));
    const result = await listModels({ provider: 'openai-compatible', baseUrl: server.baseUrl, apiKey: KEY });
    assert.equal(result.ok, false);
    assert.deepEqual(server.requests.map((r) => r.url), ['/v1/models', '/api/tags']);
  });

  it('refuses a base URL that is not http(s)', async () => {
    const result = await listModels({ provider: 'openai-compatible', baseUrl: 'file:///etc' });
    assert.equal(result.ok, false);
  });
});
