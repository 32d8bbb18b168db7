import assert from 'node:assert/strict';
import { AgentEditArgs, ChatArgs, ModelAddArgs, parseArgs } from '../../../src/extension/commands/args.js';

describe('command arguments from tree rows and callers', () => {
  it('Open Chat accepts an Agents-tree row of an agent on the default chain (model: null)', () => {
    // What the Agents view passes for an agent without "model": before the fix, "invalid arguments: model null".
    const row = { kind: 'agent', agent: 'plain', model: null, project: null, active: true };
    assert.deepEqual(parseArgs(ChatArgs, 'pepe.chat.open', row), { agent: 'plain', model: undefined });
  });

  it('still refuses a wrong type', () => {
    assert.throws(() => parseArgs(ChatArgs, 'pepe.chat.open', { agent: 'a', model: 42 }), /pepe\.chat\.open: invalid arguments \(model: /);
  });

  it('Add Model refuses a base URL that is not http(s) and a bad key variable name', () => {
    assert.throws(() => parseArgs(ModelAddArgs, 'pepe.model.add', { provider: 'openai-compatible', baseUrl: 'file:///etc/passwd' }), /baseUrl/);
    assert.throws(() => parseArgs(ModelAddArgs, 'pepe.model.add', { apiKeyEnv: 'A B' }), /apiKeyEnv/);
    assert.equal(parseArgs(ModelAddArgs, 'pepe.model.add', { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' }).baseUrl, 'http://127.0.0.1:11434/v1');
  });

  it('Edit Agent: null means "back to the default"', () => {
    assert.deepEqual(parseArgs(AgentEditArgs, 'pepe.agent.edit', { agent: 'a', modelChain: null, tools: null }), { agent: 'a', modelChain: null, tools: null });
  });
});
