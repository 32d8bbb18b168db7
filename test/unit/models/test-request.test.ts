import assert from 'node:assert/strict';
import type { PepeConfig } from '../../../src/core/config/schema.js';
import { testModel } from '../../../src/core/models/test-request.js';
import { fixture, jsonError, sse, startServer, type TestServer } from './sse-server.js';

const KEY = 'sk-test-request-0123456789SECRET';

function config(baseUrl: string): PepeConfig {
  return { models: { local: { provider: 'openai-compatible', model: 'llama3.2', base_url: baseUrl, api_key_env: 'LOCAL_KEY' } } };
}

describe('testModel (Add Model\'s test request)', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends one real request with the stored key and reports the answer', async () => {
    server = await startServer([sse([fixture('openai-text.sse')])]);
    const result = await testModel('local', config(server.baseUrl), { LOCAL_KEY: KEY });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.ok(result.ok && result.text.length > 0);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(server.requests[0]!.body.model, 'llama3.2');
  });

  it('names the missing key variable and sends nothing', async () => {
    server = await startServer([sse([fixture('openai-text.sse')])]);
    const result = await testModel('local', config(server.baseUrl), {});
    assert.equal(result.ok, false);
    assert.ok(!result.ok && result.kind === 'auth' && result.keyEnv === 'LOCAL_KEY');
    assert.match(result.ok ? '' : result.message, /no API key stored for LOCAL_KEY/);
    assert.equal(server.requests.length, 0);
  });

  it('says which key was refused on a 401, without echoing it', async () => {
    server = await startServer(() => jsonError(401, { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } }));
    const result = await testModel('local', config(server.baseUrl), { LOCAL_KEY: KEY });
    assert.ok(!result.ok);
    assert.equal(result.kind, 'auth');
    assert.equal(result.keyEnv, 'LOCAL_KEY');
    assert.match(result.message, /HTTP 401 \(the key in LOCAL_KEY was refused/);
    assert.ok(!result.message.includes(KEY), result.message);
    assert.equal(server.requests.length, 1, 'no retry');
  });

  it('names the unreachable base URL and what to check', async () => {
    server = await startServer([]);
    const baseUrl = server.baseUrl;
    await server.close();
    server = undefined;
    const result = await testModel('local', config(baseUrl), { LOCAL_KEY: KEY });
    assert.ok(!result.ok);
    assert.equal(result.kind, 'network');
    assert.ok(result.message.includes(`cannot connect to ${baseUrl}`), result.message);
    assert.match(result.message, /check that the server is running/);
  });

  it('gives up after its deadline on a server that never answers', async () => {
    server = await startServer([{ status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: [], then: 'hang' }]);
    const result = await testModel('local', config(server.baseUrl), { LOCAL_KEY: KEY }, {}, 300);
    assert.ok(!result.ok);
    assert.match(result.message, /no answer within/);
  });

  it('reports an unknown model id as a configuration problem', async () => {
    const result = await testModel('nope', { models: {} }, {});
    assert.ok(!result.ok);
    assert.equal(result.kind, 'config');
    assert.match(result.message, /unknown model "nope"/);
  });
});
