import assert from 'node:assert/strict';
import { BuiltinMemory, entryBounds } from '../../../src/core/slots/builtin/memory.js';
import { TempHome } from '../helpers/home.js';

describe('built-in memory (spec 3.5)', () => {
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const entries = (text: string) => {
    const { starts, ends } = entryBounds(text);
    return starts.map((s, i) => text.slice(s, ends[i]));
  };

  it('an entry is a paragraph, a list item (with continuation lines) or a heading', () => {
    const text = '# People\n\nAna runs billing.\nShe prefers email.\n\n- Bruno: refunds\n  (part-time)\n- Carla: triage\n1. first\n';
    assert.deepEqual(entries(text), ['# People', 'Ana runs billing.\nShe prefers email.', '- Bruno: refunds\n  (part-time)', '- Carla: triage', '1. first']);
  });

  it('case-insensitive substring over MEMORY.md, USER.md and people.md, with file names and limit', async () => {
    home.writeAgentFile('a', 'MEMORY.md', 'The deploy key lives in VAULT.\n\nUnrelated note.\n');
    home.writeAgentFile('a', 'USER.md', '- prefers short answers\n- uses the vault CLI\n');
    home.writeAgentFile('a', 'people.md', 'Dana owns the Vault migration.\n');
    home.writeAgentFile('a', 'notes.md', 'vault (not searched)\n');
    const memory = new BuiltinMemory(`${home.dir}/agents`);
    const hits = await memory.search('a', 'vault');
    assert.deepEqual(hits.map((h) => [h.file, h.entry]), [
      ['MEMORY.md', 'The deploy key lives in VAULT.'],
      ['USER.md', '- uses the vault CLI'],
      ['people.md', 'Dana owns the Vault migration.'],
    ]);
    assert.ok(hits.every((h) => h.score === null && h.source === 'builtin'), 'hits.every((h) => h.score === null && h.source === \'builtin\')');
    assert.equal((await memory.search('a', 'vault', { limit: 2 })).length, 2);
  });

  it('missing files and an unknown agent are not errors; an edit is seen on the next search', async () => {
    const memory = new BuiltinMemory(`${home.dir}/agents`);
    assert.deepEqual(await memory.search('nobody', 'x'), []);
    home.writeAgentFile('a', 'MEMORY.md', 'alpha\n');
    assert.equal((await memory.search('a', 'alpha')).length, 1);
    home.writeAgentFile('a', 'MEMORY.md', 'beta gamma, longer now\n');
    assert.deepEqual((await memory.search('a', 'alpha')).length, 0);
    assert.deepEqual((await memory.search('a', 'GAMMA')).map((h) => h.entry), ['beta gamma, longer now']);
  });

  it('a match in each of several entries of one file yields each entry once', async () => {
    home.writeAgentFile('a', 'MEMORY.md', 'x x x\n\nno\n\nx\n');
    const memory = new BuiltinMemory(`${home.dir}/agents`);
    assert.deepEqual((await memory.search('a', 'x')).map((h) => h.entry), ['x x x', 'x']);
  });

  it('handles text whose lower-casing changes length', async () => {
    home.writeAgentFile('a', 'MEMORY.md', 'İstanbul office\n\nberlin office\n');
    const memory = new BuiltinMemory(`${home.dir}/agents`);
    assert.deepEqual((await memory.search('a', 'berlin')).map((h) => h.entry), ['berlin office']);
  });
});
