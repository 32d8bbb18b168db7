import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

describe('pepe memory status and reindex', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('status names the occupant, what it can do, the index size and when it was built; reindex rebuilds it', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' }, b: { model: 'mock' } } });
    home.writeAgentFile('a', 'MEMORY.md', '- likes tea\n- lives in Lyon\n');
    home.writeAgentFile('a', 'USER.md', 'Prefers short answers.\n');
    const status = JSON.parse((await pepeCli(home.dir, ['memory', 'status', '--json'])).stdout);
    const a = status.find((s: { agent: string }) => s.agent === 'a');
    assert.equal(a.occupant, 'builtin');
    assert.deepEqual(a.can, { modes: ['keyword'], reindex: true });
    assert.equal(a.index.entries, 3);
    assert.deepEqual(a.index.files.map((f: { file: string }) => f.file), ['MEMORY.md', 'USER.md']);
    assert.ok(a.index.files.every((f: { indexedAt: string | null; modifiedAt: string }) => f.indexedAt && f.modifiedAt));
    assert.equal(status.find((s: { agent: string }) => s.agent === 'b').index.entries, 0);

    appendFileSync(join(home.dir, 'agents', 'a', 'MEMORY.md'), '- owns a cat\n');
    const r = await pepeCli(home.dir, ['memory', 'reindex', '--agent', 'a']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /a: reindexed \(builtin\): 4 entries in 2 file\(s\)/);
    const text = await pepeCli(home.dir, ['memory', 'status', '--agent', 'a']);
    assert.match(text.stdout, /a\/MEMORY\.md: \d+ bytes, 3 entries/);
    assert.equal((await pepeCli(home.dir, ['memory', 'status', '--agent', 'ghost'])).exitCode, 2);
  });

  it('a plugin occupant: its modes, whether it can reindex, and reindex calls its index()', async () => {
    // Plugins run confined (they cannot write into PEPE_HOME): index() says what it did on its console, which goes to the log.
    home.writePlugin('vec.mjs', `export const name = () => 'vec'; export const slot = () => 'memory';
      export function search() { return []; }
      export function index(agent) { console.log('indexing ' + agent); }`);
    home.writeConfig({ slots: { memory: 'vec' }, agents: { a: { model: 'mock' } } });
    const [a] = JSON.parse((await pepeCli(home.dir, ['memory', 'status', '--json'])).stdout);
    assert.deepEqual([a.occupant, a.can.reindex, a.index], ['vec', true, null]);
    const r = await pepeCli(home.dir, ['memory', 'reindex']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /a: reindexed \(vec\)/);
    assert.match(readFileSync(join(home.dir, 'logs', 'pepe.jsonl'), 'utf8'), /indexing a/);
  });
});
