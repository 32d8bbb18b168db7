import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '../helpers/agents.js';
import { CLI, ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

function chat(home: string, agent: string, cwd: string) {
  const child: ChildProcessWithoutNullStreams = spawn('node', [CLI, 'chat', agent], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home } });
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

describe('plan mode in the CLI: pepe run --plan, /plan, /act and /start in pepe chat', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('pepe run --plan refuses a pre-approved write and says plan mode is on', async () => {
    const model = script(home, 'a', [{ tool_calls: [{ name: 'write_file', arguments: { path: 'w.txt', content: 'x' } }] }, { text: 'here is the plan' }]);
    home.writeConfig({ agents: { a: { model, auto_approve: '*' } } });
    const r = await pepeCli(home.dir, ['run', 'a', 'plan it', '--plan', '--json'], {}, home.workspace);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(existsSync(join(home.workspace, 'w.txt')), false);
    assert.match(r.stdout, /Plan mode is on: write_file was not run/);
    assert.match(r.stdout, /here is the plan/);
  });

  it('/plan, then /start hands the plan over in acting mode; /start AGENT hands it to another agent; /act leaves', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' }, b: { model: 'mock' } } });
    const c = chat(home.dir, 'a', home.workspace);
    c.send('/start');
    await c.until(/no plan to start yet/);
    c.send('/plan');
    await c.until(/\(plan mode: only tools that read run/);
    c.send('step one');
    await c.until(/\/start carries out this plan/);
    c.send('/start');
    await c.until(/You said: Carry out this plan, which was agreed in plan mode:\s+You said: step one/);
    c.send('/plan');
    c.send('second plan');
    await c.until(/You said: second plan[\s\S]*\/start carries out this plan/);
    c.send('/start b');
    await c.until(/the plan is handed to b; new session\)[\s\S]*You said: Carry out this plan, which was agreed in plan mode:\s+You said: second plan\s+\(turn [^\n]*\)\s+b> /);
    assert.match(c.output(), /\(turn \d+ tokens · conversation \d+ tokens · context \d+ of 128\.0k \(0%; compacts at 76\.8k\)\)/, 'a status line after each turn');
    c.send('/act');
    await c.until(/\(acting: tools run under the usual approvals\)/);
    await c.end();
  });
});
