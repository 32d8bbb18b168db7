import assert from 'node:assert/strict';
import { draftProblem, keyEnvFor, parseFormMessage, parseHostFormMessage, suggestModelId } from '../../../src/protocol/model-form-messages.js';

describe('model setup form messages (both directions checked)', () => {
  it('accepts the form\'s messages and refuses anything else', () => {
    assert.deepEqual(parseFormMessage({ type: 'ready' }), { type: 'ready' });
    const draft = { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k', model: 'm', id: 'local' };
    assert.deepEqual(parseFormMessage({ type: 'save', draft }), { type: 'save', draft });
    assert.equal(parseFormMessage({ type: 'save', draft: { ...draft, provider: 'mock' } }), undefined, 'no provider outside the list');
    assert.equal(parseFormMessage({ type: 'runCommand', command: 'rm -rf' }), undefined);
    assert.equal(parseFormMessage({ type: 'test', draft: { ...draft, model: 'x'.repeat(5000) } }), undefined, 'over-long fields are refused');
    assert.equal(parseFormMessage('ready'), undefined);
    assert.equal(parseFormMessage(null), undefined);
  });

  it('the host\'s messages carry no key field, and unknown ones are dropped by the page', () => {
    assert.deepEqual(parseHostFormMessage({ type: 'saved', id: 'local', madeDefault: true, keyEnv: 'LOCAL_API_KEY' }), { type: 'saved', id: 'local', madeDefault: true, keyEnv: 'LOCAL_API_KEY' });
    // Extra fields are stripped: a key could not ride along even by mistake.
    assert.deepEqual(parseHostFormMessage({ type: 'saved', id: 'a', madeDefault: false, apiKey: 'sk-1' }), { type: 'saved', id: 'a', madeDefault: false });
    assert.equal(parseHostFormMessage({ type: 'html', html: '<script>' }), undefined);
  });

  it('checks a draft as the host does', () => {
    const base = { provider: 'openai-compatible' as const, baseUrl: 'http://localhost:11434/v1', model: 'llama3.2', id: 'llama3.2' };
    assert.equal(draftProblem(base, []), undefined);
    assert.match(draftProblem({ ...base, baseUrl: 'file:///etc/passwd' }, [])!, /http:\/\/ or https:\/\//);
    assert.match(draftProblem({ ...base, baseUrl: 'not a url' }, [])!, /not a URL/);
    assert.match(draftProblem({ ...base, id: 'bad id' }, [])!, /letters, digits/);
    assert.match(draftProblem(base, ['llama3.2'])!, /already exists/);
    assert.match(draftProblem({ ...base, model: ' ' }, [])!, /Choose a model/);
    assert.equal(draftProblem({ provider: 'vscode', model: 'copilot/gpt-4o', id: '' }, []), undefined);
  });

  it('key names and suggested ids', () => {
    assert.equal(keyEnvFor('openai', 'x'), 'OPENAI_API_KEY');
    assert.equal(keyEnvFor('anthropic', 'x'), 'ANTHROPIC_API_KEY');
    assert.equal(keyEnvFor('openai-compatible', 'my-local.1'), 'MY_LOCAL_1_API_KEY');
    assert.equal(keyEnvFor('vscode', 'x'), undefined);
    assert.equal(suggestModelId('library/qwen2.5:7b', []), 'qwen2.5-7b');
    assert.equal(suggestModelId('gpt-4o', ['gpt-4o', 'gpt-4o-2']), 'gpt-4o-3');
  });
});
