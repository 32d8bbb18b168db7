import assert from 'node:assert/strict';
import { MAX_SESSION_BARRIERS } from '../../../src/core/runtime/session-barriers.js';
import { LruMap } from '../../../src/core/runtime/lru-map.js';
import { TempHome } from '../helpers/home.js';

describe('bounded per-session state', function () {
  this.timeout(60_000);

  it('LruMap keeps at most its capacity and drops the least recently used', () => {
    const m = new LruMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    assert.equal(m.get('a'), 1, 'a is now the most recent');
    m.set('c', 3);
    assert.equal(m.size, 2);
    assert.equal(m.has('b'), false, 'b was the least recently used');
    assert.equal(m.get('a'), 1);
    assert.equal(m.get('c'), 3);
    assert.throws(() => new LruMap(0), /capacity/);
  });

  it('the runtime keeps a barrier for at most MAX_SESSION_BARRIERS sessions', async () => {
    const home = new TempHome();
    try {
      home.writeConfig({ agents: { a: { model: 'mock' } } });
      const pepe = await home.pepe({ workspace: home.dir });
      for (let i = 0; i < MAX_SESSION_BARRIERS + 10; i++) await pepe.run({ agent: 'a', text: `hi ${i}` });
      const barriers = ((await pepe['runtime']()) as unknown as { barriers: { size: number } }).barriers;
      assert.equal(barriers.size, MAX_SESSION_BARRIERS);
    } finally {
      home.cleanup();
    }
  });
});
