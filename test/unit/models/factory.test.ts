import assert from 'node:assert/strict';
import type { PepeConfig } from '../../../src/core/config/schema.js';
import { UsageError } from '../../../src/core/errors.js';
import { createProvider } from '../../../src/core/models/factory.js';
import { MockProvider } from '../../../src/core/models/mock.js';
import { collect, type ModelProvider } from '../../../src/core/models/provider.js';

const config: PepeConfig = {
  models: {
    fast: { provider: 'openai', model: 'gpt-4o-mini', api_key_env: 'OPENAI_API_KEY' },
    local: { provider: 'openai-compatible', model: 'llama3.2', base_url: 'http://127.0.0.1:11434/v1' },
    claude: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    fake: { provider: 'mock', model: 'mock' },
  },
};

describe('createProvider', () => {
  it('builds the built-in mock, configured models, and accepts a ModelRef', () => {
    assert.ok(createProvider('mock', {}, {}) instanceof MockProvider);
    for (const id of ['fast', 'local', 'claude', 'fake']) assert.equal(createProvider(id, config, {}).id, id);
    assert.equal(createProvider({ id: 'local', provider: 'openai-compatible' }, config, {}).id, 'local');
  });

  it('a configured mock model echoes', async () => {
    const res = await collect(createProvider('fake', config, {}).stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
    assert.equal(res.text, 'You said: hi');
  });

  it('uses the vendor key variable when api_key_env is absent, without reading process.env', async () => {
    // ANTHROPIC_API_KEY is absent from the injected env: the call fails before any request, naming it.
    await assert.rejects(collect(createProvider('claude', config, {}).stream({ messages: [], tools: [] })), /no API key stored for ANTHROPIC_API_KEY/);
  });

  it('rejects unknown ids, listing what is configured', () => {
    assert.throws(
      () => createProvider('gpt-5', config, {}),
      (e: unknown) => e instanceof UsageError && /unknown model "gpt-5"/.test(e.message) && /"fast", "local", "claude", "fake"/.test(e.message) && /"mock"/.test(e.message),
    );
    assert.throws(() => createProvider('nope', {}, {}), /unknown model "nope": use a key of "models"/);
  });

  it('explains vscode: ids outside VS Code, and lets a host supply them', () => {
    assert.throws(() => createProvider('vscode:copilot/gpt-4o', {}, {}), /only inside VS Code/);
    const lm: ModelProvider = { id: 'vscode:copilot/gpt-4o', stream: async function* () {} };
    assert.equal(createProvider('vscode:copilot/gpt-4o', {}, {}, { external: (id) => (id === lm.id ? lm : undefined) }), lm);
  });

  it('requires base_url for openai-compatible models and a path after mock:', () => {
    assert.throws(() => createProvider('x', { models: { x: { provider: 'openai-compatible', model: 'm' } } }, {}), /models\.x: .*needs "base_url"/);
    assert.throws(() => createProvider('mock:', {}, {}), /name a script file/);
  });
});
