import assert from 'node:assert/strict';
import type { PepeConfig } from '../../../src/core/config/schema.js';
import { agentModelProblem } from '../../../src/extension/models/usable.js';
import { TempHome } from '../helpers/home.js';

describe('agentModelProblem (the Agents tree warning)', () => {
  const models: PepeConfig['models'] = {
    fast: { provider: 'openai', model: 'gpt-4o-mini' },
    local: { provider: 'openai-compatible', model: 'llama3.2', base_url: 'http://127.0.0.1:11434/v1' },
  };

  it('an agent on an unset default chain has no model', () => {
    assert.match(agentModelProblem({ agents: { a: {} } }, 'a', {}) ?? '', /no model: .*default_model_chain is unset/);
  });

  it('a model whose key is not stored is named with its variable (default names included)', () => {
    assert.equal(agentModelProblem({ models, agents: { a: { model: 'fast' } } }, 'a', {}), 'no usable model: no API key stored for OPENAI_API_KEY (model fast)');
    assert.equal(agentModelProblem({ models, agents: { a: { model: 'fast' } } }, 'a', { OPENAI_API_KEY: 'k' }), undefined);
  });

  it('one usable model in the chain is enough; the default chain counts', () => {
    assert.equal(agentModelProblem({ models, agents: { a: { model_chain: ['fast', 'local'] } } }, 'a', {}), undefined);
    assert.equal(agentModelProblem({ models, default_model_chain: ['fast', 'mock'], agents: { a: {} } }, 'a', {}), undefined);
  });

  it('unknown ids are problems; mock and vscode: are not', () => {
    assert.match(agentModelProblem({ agents: { a: { model: 'gpt5' } } }, 'a', {}) ?? '', /unknown model "gpt5"/);
    assert.equal(agentModelProblem({ agents: { a: { model: 'vscode:copilot/gpt-4o' } } }, 'a', {}), undefined);
  });
});

describe('pepe doctor: an agent with no usable model', () => {
  let home: TempHome;
  beforeEach(() => (home = new TempHome()));
  afterEach(() => home.cleanup());

  it('is a warning naming the agent and why (unset default chain; missing key)', async () => {
    home.writeConfig({ models: { fast: { provider: 'openai', model: 'gpt-4o-mini' } }, agents: { plain: {}, keyed: { model: 'fast' }, fine: { model: 'mock' } } });
    const findings = await (await home.pepe({ env: {} })).doctor();
    const about = (agent: string) => findings.filter((f) => f.area === 'model' && f.message.startsWith(`agent ${agent} cannot answer`));
    assert.match(about('plain')[0]?.message ?? '', /no model: .*default_model_chain is unset/);
    assert.match(about('keyed')[0]?.message ?? '', /no API key stored for OPENAI_API_KEY \(model fast\)/);
    assert.deepEqual(about('fine'), []);
  });
});
