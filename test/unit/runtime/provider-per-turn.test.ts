/**
 * A turn makes each model's provider once and reuses it for every call of the turn (a provider
 * holds no state between requests); the next turn makes its own.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockProvider } from '../../../src/core/models/mock.js';
import { TempHome } from '../helpers/home.js';

describe('model providers within a turn', () => {
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('a three-call turn makes its provider once; a second turn once more', async () => {
    writeFileSync(join(home.dir, 'a.txt'), 'one\n');
    const script = { steps: [{ tool_calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { tool_calls: [{ name: 'read_file', arguments: { path: 'a.txt', offset: 1 } }] }, { text: 'done' }] };
    let made = 0;
    home.writeConfig({ agents: { a: { model: 'ext:counted', tools: ['read_file'] } } });
    const pepe = await home.pepe({ workspace: home.dir, providerOptions: { external: (id) => (id === 'ext:counted' ? (made++, new MockProvider(id, script)) : undefined) } });
    try {
      const first = await pepe.run({ agent: 'a', text: 'go', personPresent: false });
      assert.equal(first.status, 'ok', first.error);
      assert.equal(first.content, 'done');
      assert.equal(made, 1, 'one provider for the turn\'s three calls');
      await pepe.run({ agent: 'a', text: 'again', personPresent: false });
      assert.equal(made, 2, 'the next turn makes its own');
    } finally {
      pepe.dispose();
    }
  });
});
