import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '../helpers/agents.js';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

describe('finding a conversation again: pepe sessions list --search, show, export, rm; pepe usage --session', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());
  const run = (...args: string[]) => pepeCli(home.dir, args);

  it('titles sessions from their first message, finds them by words of their messages, exports them as Markdown and removes them', async () => {
    const tool = script(home, 'b', [{ tool_calls: [{ name: 'memory_search', arguments: { query: '```x' } }] }, { text: 'found nothing' }]);
    home.writeConfig({ agents: { a: { model: 'mock' }, b: { model: tool } } });
    assert.equal((await run('run', 'a', 'Fix the login page\nit breaks on Safari', '--no-input')).exitCode, 0);
    assert.equal((await run('run', 'b', 'look in memory', '--no-input')).exitCode, 0);
    const all = JSON.parse((await run('sessions', 'list', '--json')).stdout) as { id: string; agent: string; title: string }[];
    const a = all.find((s) => s.agent === 'a')!;
    const b = all.find((s) => s.agent === 'b')!;
    assert.equal(a.title, 'Fix the login page');
    const found = JSON.parse((await run('sessions', 'list', '--search', 'safari BREAKS', '--json')).stdout) as { id: string }[];
    assert.deepEqual(found.map((s) => s.id), [a.id], 'found by words of a message, in any case');
    assert.match((await run('sessions', 'list', '--search', 'nothing-like-this')).stdout, /no session matches/);

    const md = (await run('sessions', 'export', b.id)).stdout;
    assert.match(md, /^# look in memory/);
    assert.match(md, /## You\n\nlook in memory/);
    assert.match(md, /\*\*Tool call\*\* `memory_search`\n\n````json\n\{\n {2}"query": "```x"\n\}\n````/, 'a fence longer than the backticks inside');
    assert.match(md, /## b\n\nfound nothing/);
    assert.equal((await run('sessions', 'show', b.id)).stdout, md);

    const file = join(home.workspace, 'b.md');
    assert.equal((await run('sessions', 'export', b.id, '-o', file)).exitCode, 0);
    assert.equal(readFileSync(file, 'utf8').trimEnd(), md.trimEnd());
    writeFileSync(file, 'mine');
    const again = await run('sessions', 'export', b.id, '-o', file);
    assert.notEqual(again.exitCode, 0);
    assert.match(again.stderr, /exists; name another file/);
    assert.equal(readFileSync(file, 'utf8'), 'mine', 'an existing file is kept');

    const usage = await run('usage', '--session', a.id);
    assert.match(usage.stdout, new RegExp(`^a ${a.id}: conversation \\d+ tokens · context \\d+ of 128\\.0k \\(0%; compacts at 76\\.8k\\)`));

    assert.equal((await run('sessions', 'rm', a.id)).exitCode, 0);
    assert.match((await run('sessions', 'show', a.id)).stderr, /no session/);
    assert.equal((await run('sessions', 'delete', 'b', b.id)).exitCode, 0, 'delete AGENT ID still works');
    assert.deepEqual(JSON.parse((await run('sessions', 'list', '--json')).stdout), []);
  });
});
