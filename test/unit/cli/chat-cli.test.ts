import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { script } from '../helpers/agents.js';
import { CLI, ensureBuilt } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

/** `pepe chat` on pipes: write lines, wait for what it prints. */
function chat(home: string, agent: string) {
  const child: ChildProcessWithoutNullStreams = spawn('node', [CLI, 'chat', agent], { cwd: home, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const until = async (pattern: RegExp, ms = 15_000) => {
    const end = Date.now() + ms;
    while (!pattern.test(out)) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${pattern}; output so far:\n${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const exited = new Promise<number | null>((r) => child.on('close', r));
  return { send: (line: string) => child.stdin.write(`${line}\n`), until, output: () => out, end: async () => (child.stdin.end(), exited) };
}

describe('pepe chat: configuration between turns, early lines, a removed hand-over target', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('lines sent before the prompt loop is ready are all answered, in order', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const c = chat(home.dir, 'a');
    for (let i = 1; i <= 30; i++) c.send(`early ${i}`);
    await c.until(/You said: early 30/);
    await c.end();
    const said = [...c.output().matchAll(/You said: (early \d+)/g)].map((m) => m[1]);
    assert.deepEqual(said, Array.from({ length: 30 }, (_, i) => `early ${i + 1}`));
  });

  it('reloads the configuration between turns: an agent added meanwhile can be talked to', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const c = chat(home.dir, 'a');
    c.send('hello');
    await c.until(/You said: hello/);
    home.writeConfig({ agents: { a: { model: 'mock' }, Newcomer: { model: 'mock' } } });
    c.send('/agent newcomer');
    await c.until(/now talking with Newcomer/);
    c.send('hi there');
    await c.until(/Newcomer> You said: hi there/);
    await c.end();
  });

  it('a hand-over to an agent removed during the turn leaves the conversation where it was, with a notice', async () => {
    const slow = script(home, 'a', [{ tool_calls: [{ name: 'switch_agent', arguments: { target: 'b' } }] }, { text: 'connecting you', delay_ms: 1500 }, { text: 'still a here' }]);
    home.writeConfig({ agents: { a: { model: slow, can_message: ['b'], auto_approve: ['switch_agent'] }, b: { model: 'mock' } } });
    const c = chat(home.dir, 'a');
    c.send('billing please');
    await c.until(/switch_agent/);
    home.writeConfig({ agents: { a: { model: slow, auto_approve: ['switch_agent'] } } });
    await c.until(/b no longer exists; the conversation stays with a/);
    c.send('and now?');
    await c.until(/still a here/);
    await c.end();
    assert.doesNotMatch(c.output(), /handed to b/);
  });
});
