import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { script } from '../helpers/agents.js';
import { startInstantAnswerServer } from '../helpers/ddg-server.js';
import { CLI, ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

/**
 * Where the person sees that a conversation took in outside content, and how they trust it again
 * (spec 5.3): `pepe sessions list`, `pepe sessions trust AGENT ID`, and `pepe chat`'s prompt and
 * `/trust`.
 */
describe('pepe: outside content shown per conversation, trusted again by the person', function () {
  this.timeout(60_000);
  let home: TempHome;
  let ddg: Awaited<ReturnType<typeof startInstantAnswerServer>>;
  before(ensureBuilt);
  beforeEach(async () => {
    home = new TempHome();
    ddg = await startInstantAnswerServer({ Heading: 'x', AbstractText: 'text from the web' });
    const model = script(home, 'a', [{ tool_calls: [{ name: 'web_search', arguments: { query: 'x' } }] }, { text: 'searched' }, { text: 'hello again' }, { text: 'and again' }]);
    home.writeConfig({ agents: { a: { model, tools: ['web_search'] } }, web_search: { endpoint: ddg.url } });
  });
  afterEach(async () => {
    await ddg.close();
    home.cleanup();
  });

  async function searchedSession(): Promise<string> {
    const r = await pepeCli(home.dir, ['run', 'a', 'search', '--json'], {}, home.workspace);
    assert.equal(r.exitCode, 0, r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').at(-1)!).sessionId;
  }

  it('sessions list shows the outside content; sessions trust clears it', async () => {
    const id = await searchedSession();
    let list = JSON.parse((await pepeCli(home.dir, ['sessions', 'list', 'a', '--json'])).stdout);
    assert.deepEqual(list[0].outsideContent, ['web_search']);
    let table = (await pepeCli(home.dir, ['sessions', 'list', 'a'])).stdout;
    assert.match(table, /OUTSIDE CONTENT/);
    assert.match(table, new RegExp(`${id}.*yes: web_search`));
    const trusted = await pepeCli(home.dir, ['sessions', 'trust', 'a', id]);
    assert.equal(trusted.exitCode, 0, trusted.stderr);
    assert.match(trusted.stdout, /trusted .* again/);
    list = JSON.parse((await pepeCli(home.dir, ['sessions', 'list', 'a', '--json'])).stdout);
    assert.deepEqual(list[0].outsideContent, []);
    table = (await pepeCli(home.dir, ['sessions', 'list', 'a'])).stdout;
    assert.doesNotMatch(table, /yes: web_search/);
    const unknown = await pepeCli(home.dir, ['sessions', 'trust', 'a', 'no-such-session']);
    assert.equal(unknown.exitCode, 2);
    assert.match(unknown.stderr, /no session no-such-session/);
  });

  it("pepe chat's prompt carries the mark while the conversation is tainted, and /trust clears it", async () => {
    const id = await searchedSession();
    const child = spawn('node', [CLI, 'chat', 'a', '--session', id], { cwd: home.workspace, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home.dir } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const closed = new Promise((r) => child.on('close', r));
    const until = async (pattern: RegExp) => {
      for (let i = 0; i < 750 && !pattern.test(out); i++) await new Promise((r) => setTimeout(r, 20));
      assert.match(out, pattern);
    };
    await until(/a \[outside content: asks first; \/trust\]> $/);
    child.stdin.write('hello\n');
    await until(/hello again[\s\S]*a \[outside content: asks first; \/trust\]> $/);
    child.stdin.write('/trust\n');
    await until(/\(trusted again[^\n]*\)\na> $/);
    child.stdin.end();
    await closed;
    const list = JSON.parse((await pepeCli(home.dir, ['sessions', 'list', 'a', '--json'])).stdout);
    assert.deepEqual(list[0].outsideContent, []);
  });
});
