import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { addModel, editAgent, linkSchema } from '../../../src/core/config/edits.js';
import { ConfigStore } from '../../../src/core/config/store.js';
import { UsageError } from '../../../src/core/errors.js';
import { TempHome } from '../helpers/home.js';

/** The named configuration edits the hosts call (through the facade) instead of writing drafts themselves. */
describe('named config edits (config/edits.ts)', () => {
  it('editAgent: a one-model chain is model, a longer one model_chain, null or [] removes both; other fields alone', () => {
    const raw = { agents: { a: { model: 'm1', model_chain: ['x', 'y'], tools: ['bash'], system_prompt: 'hi', core: '/c', mine: 1 } } } as Record<string, any>;
    editAgent(raw, 'a', { modelChain: ['m2'] });
    assert.deepEqual(raw.agents.a, { model: 'm2', tools: ['bash'], system_prompt: 'hi', core: '/c', mine: 1 });
    editAgent(raw, 'a', { modelChain: ['m2', 'm3'] });
    assert.deepEqual(raw.agents.a.model_chain, ['m2', 'm3']);
    assert.equal(raw.agents.a.model, undefined);
    editAgent(raw, 'a', { modelChain: [] });
    assert.deepEqual(raw.agents.a, { tools: ['bash'], system_prompt: 'hi', core: '/c', mine: 1 });
    editAgent(raw, 'a', { modelChain: null, tools: null, systemPrompt: '', core: null });
    assert.deepEqual(raw.agents.a, { mine: 1 }, 'an unknown key survives');
    editAgent(raw, 'a', { tools: [], systemPrompt: 'be brief', core: '/cores/x' });
    assert.deepEqual(raw.agents.a, { mine: 1, tools: [], system_prompt: 'be brief', core: '/cores/x' });
  });

  it('editAgent: an unknown agent is refused, prototype names included', () => {
    for (const name of ['nobody', 'constructor', '__proto__']) {
      assert.throws(() => editAgent({ agents: { a: {} } }, name, { tools: null }), (e: unknown) => e instanceof UsageError && e.message === `unknown agent "${name}"`);
    }
    assert.throws(() => editAgent({}, 'a', { tools: null }), UsageError);
  });

  it('addModel: adds and becomes the default only when there is none; an existing id is refused; without a model only adopts', () => {
    const raw: Record<string, any> = {};
    assert.equal(addModel(raw, 'fast', { provider: 'openai', model: 'gpt-4o-mini' }), true);
    assert.deepEqual(raw, { models: { fast: { provider: 'openai', model: 'gpt-4o-mini' } }, default_model_chain: ['fast'] });
    assert.equal(addModel(raw, 'slow', { provider: 'anthropic', model: 'claude' }), false);
    assert.deepEqual(raw.default_model_chain, ['fast']);
    assert.throws(() => addModel(raw, 'fast', { provider: 'openai', model: 'other' }), /model "fast" already exists in config\.json/);
    assert.deepEqual(raw.models.fast, { provider: 'openai', model: 'gpt-4o-mini' });
    const bare: Record<string, any> = { default_model_chain: [] };
    assert.equal(addModel(bare, 'vscode:copilot/gpt-4o'), true);
    assert.deepEqual(bare, { default_model_chain: ['vscode:copilot/gpt-4o'] });
    assert.throws(() => addModel({ models: 'oops' }, 'x', { provider: 'openai', model: 'y' }), /models is not an object; fix it by hand first/);
  });

  it("linkSchema: $schema goes first; the person's own $schema is left alone", () => {
    const raw: Record<string, unknown> = { agents: {}, slots: {} };
    assert.equal(linkSchema(raw, './config.schema.json'), true);
    assert.deepEqual(Object.keys(raw), ['$schema', 'agents', 'slots']);
    const theirs: Record<string, unknown> = { $schema: 'https://example.com/s.json', agents: {} };
    assert.equal(linkSchema(theirs, './config.schema.json'), false);
    assert.equal(theirs.$schema, 'https://example.com/s.json');
  });

  it('through the store: the edits land in config.json under the lock, unknown keys kept', async () => {
    const home = new TempHome();
    try {
      home.writeConfig({ agents: { a: { model: 'mock', extra: true } }, later: 1 });
      const store = new ConfigStore(home.config);
      await store.update((raw) => editAgent(raw, 'a', { systemPrompt: 'p', tools: ['read_file'] }));
      assert.equal(await store.update((raw) => addModel(raw, 'm', { provider: 'openai', model: 'x' })), true);
      await store.update((raw) => linkSchema(raw, './config.schema.json'));
      const written = JSON.parse(readFileSync(home.config, 'utf8'));
      assert.deepEqual(Object.keys(written)[0], '$schema');
      assert.deepEqual(written.agents.a, { model: 'mock', extra: true, system_prompt: 'p', tools: ['read_file'] });
      assert.equal(written.later, 1);
      assert.deepEqual(written.default_model_chain, ['m']);
    } finally {
      home.cleanup();
    }
  });
});
