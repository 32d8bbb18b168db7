import assert from 'node:assert/strict';
import { TempHome } from '../helpers/home.js';

const FLAKY = `export const name = () => 'flaky'; export const slot = () => 'memory';
  export function search(agent, q) { if (q === 'fail') throw new Error('nope'); return [{ file: 'f', entry: q, score: null, source: 'flaky' }]; }`;

describe('slots: "default", the fallback record, what the built-in uses', function () {
  this.timeout(20_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('"default" (or "builtin") as a slot value means the built-in, with no fallback logged', async () => {
    home.writeConfig({ slots: { memory: 'default', web_search: 'builtin' }, agents: { a: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const answer = await pepe.slotTest('memory', { agent: 'a', query: 'x' });
    assert.deepEqual([answer.occupant, answer.answeredBy, answer.fallback], ['builtin', 'builtin', null]);
    const rows = await pepe.slotList();
    for (const slot of ['memory', 'web_search']) {
      const row = rows.find((r) => r.slot === slot)!;
      assert.deepEqual([row.occupant, row.status, row.reason, row.fallbacks.count], ['builtin', 'ok', null, 0], slot);
    }
    assert.deepEqual(pepe['log'].readKind('slot_fallback'), []);
    assert.ok(!(await pepe.doctor()).some((f) => f.area === 'slot' && f.level !== 'info'), 'doctor finds no slot problem (it only says what a command can see)');
  });

  it('"default" at agent level pins the built-in for that agent over an install-wide plugin', async () => {
    home.writePlugin('flaky.mjs', FLAKY);
    home.writeConfig({ slots: { memory: 'flaky' }, agents: { a: { model: 'mock', slots: { memory: 'default' } }, b: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    assert.equal((await pepe.slotTest('memory', { agent: 'a', query: 'x' })).answeredBy, 'builtin');
    assert.equal((await pepe.slotTest('memory', { agent: 'b', query: 'x' })).answeredBy, 'flaky');
  });

  it('a fallback record shows "recovered" after the next clean answer', async () => {
    home.writePlugin('flaky.mjs', FLAKY);
    home.writeConfig({ slots: { memory: 'flaky' } });
    const pepe = await home.pepe({ workspace: home.dir });
    await pepe.slotTest('memory', { query: 'fail' });
    let row = (await pepe.slotList()).find((r) => r.slot === 'memory')!;
    assert.equal(row.fallbacks.count, 1);
    assert.equal(row.fallbacks.recovered, false);
    await pepe.slotTest('memory', { query: 'fine' });
    row = (await pepe.slotList()).find((r) => r.slot === 'memory')!;
    assert.equal(row.fallbacks.recovered, true, 'a clean answer since the last fallback');
    assert.ok(row.fallbacks.recoveredAt);
    await pepe.slotTest('memory', { query: 'fine' });
    assert.equal(pepe['log'].readKind('slot_recovered').length, 1, 'one record per recovery, not per answer');
    await pepe.slotTest('memory', { query: 'fail' });
    row = (await pepe.slotList()).find((r) => r.slot === 'memory')!;
    assert.deepEqual([row.fallbacks.count, row.fallbacks.recovered], [2, false]);
  });

  it('slot clear and slot set clear the fallback record of that slot', async () => {
    home.writePlugin('flaky.mjs', FLAKY);
    home.writeConfig({ slots: { memory: 'flaky' } });
    const pepe = await home.pepe({ workspace: home.dir });
    await pepe.slotTest('memory', { query: 'fail' });
    await pepe.slotClear('memory');
    await pepe.slotSet('memory', 'flaky');
    assert.equal((await pepe.slotList()).find((r) => r.slot === 'memory')!.fallbacks.count, 0);
    await pepe.slotTest('memory', { query: 'fail' });
    assert.equal((await pepe.slotList()).find((r) => r.slot === 'memory')!.fallbacks.count, 1);
    await pepe.slotSet('memory', 'flaky');
    assert.equal((await pepe.slotList()).find((r) => r.slot === 'memory')!.fallbacks.count, 0);
  });

  it('slot list names what the built-in uses: the web_search backend (credentials never shown)', async () => {
    home.writeConfig({});
    const pepe = await home.pepe({ workspace: home.dir });
    let web = (await pepe.slotList()).find((r) => r.slot === 'web_search')!;
    assert.match(web.uses ?? '', /DuckDuckGo Instant Answer API \(https:\/\/api\.duckduckgo\.com\/\)/);
    home.writeConfig({ web_search: { endpoint: 'https://user:s3cret@proxy.example.test/search?key=abc' } });
    await pepe.reload();
    web = (await pepe.slotList()).find((r) => r.slot === 'web_search')!;
    assert.match(web.uses ?? '', /proxy\.example\.test\/search/);
    assert.doesNotMatch(web.uses ?? '', /s3cret|user|key=abc/);
    const memory = (await pepe.slotList()).find((r) => r.slot === 'memory')!;
    assert.match(memory.uses ?? '', /MEMORY\.md, USER\.md, people\.md/);
  });
});
