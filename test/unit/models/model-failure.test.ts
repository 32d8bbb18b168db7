import assert from 'node:assert/strict';
import { classifyFailure } from '../../../src/protocol/model-failure.js';

describe('classifyFailure: the known failures of a turn, one line and a fix', () => {
  it('a refused key (401/403) names the key and offers Set API Key…, Edit Model…, Retry', () => {
    const f = classifyFailure('every model in the chain failed: fast: model "fast": HTTP 401 (the key in OPENAI_API_KEY was refused: store the right one with "Pepe: Set API Key…" or in that environment variable): Incorrect API key provided');
    assert.deepEqual(f, { kind: 'refused_key', line: 'The server refused the API key in OPENAI_API_KEY (model fast).', fixes: ['set_api_key', 'edit_model', 'retry'], keyEnv: 'OPENAI_API_KEY', model: 'fast' });
    assert.equal(classifyFailure('every model in the chain failed: local: model "local": HTTP 403: Forbidden')?.kind, 'refused_key');
  });

  it('a missing key, an unknown model, a rate limit, an unreachable server, a budget', () => {
    assert.equal(classifyFailure('every model in the chain failed: fast: model "fast": no API key stored for OPENAI_API_KEY: in VS Code run …')?.keyEnv, 'OPENAI_API_KEY');
    assert.deepEqual(classifyFailure('every model in the chain failed: local: model "local": HTTP 404: model not found')?.fixes, ['edit_model', 'retry']);
    assert.equal(classifyFailure('every model in the chain failed: local: model "local": HTTP 429: slow down')?.kind, 'rate_limit');
    const down = classifyFailure('every model in the chain failed: local: model "local": cannot connect to 127.0.0.1:9 (ECONNREFUSED): check that the server is running');
    assert.equal(down?.kind, 'unreachable');
    assert.match(down!.line, /127\.0\.0\.1:9/);
    assert.equal(classifyFailure('stopped before a model call: fast: this call could cost up to $0.20, over limits.max_cost')?.kind, 'budget');
  });

  it('the first model of a chain decides; an unknown text is not classified', () => {
    assert.equal(classifyFailure('every model in the chain failed: a: model "a": HTTP 404: x; b: model "b": HTTP 401: y')?.kind, 'unknown_model');
    assert.equal(classifyFailure('the tool crashed'), null);
  });

  it('names that do not look like a key or a model are not taken from the text', () => {
    const f = classifyFailure('every model in the chain failed: x: model "a b<script>": HTTP 401 (the key in $(rm -rf) was refused)');
    assert.equal(f?.kind, 'refused_key');
    assert.equal(f?.keyEnv, undefined);
    assert.equal(f?.model, 'x');
  });
});
