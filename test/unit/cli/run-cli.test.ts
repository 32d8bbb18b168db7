import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '../helpers/agents.js';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

describe('pepe run, approvals, sessions, usage (spec 9.1)', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());
  const run = (...args: string[]) => pepeCli(home.dir, args);

  it('run streams the answer; --json prints one event per line ending with turn_end; --provider fake is mock', async () => {
    home.writeConfig({ agents: { a: { model: 'mock:nowhere.json' } } });
    let r = await run('run', 'a', 'hello', '--provider', 'fake');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, 'You said: hello');
    r = await run('run', 'a', 'hello', '--model', 'mock', '--json');
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(events[0].type, 'turn_start');
    const last = events.at(-1);
    assert.equal(last.type, 'turn_end');
    assert.equal(last.content, 'You said: hello');
    const again = await run('run', 'a', 'second', '--model', 'mock', '--session', last.sessionId, '--json');
    assert.equal(JSON.parse(again.stdout.trim().split('\n').at(-1)!).sessionId, last.sessionId);
    assert.equal((await run('run', 'a', 'x', '--provider', 'openai')).exitCode, 2);
    assert.equal((await run('run', 'ghost', 'x', '--provider', 'fake')).exitCode, 2);
  });

  it('without a TTY a gated call is parked; approvals approve runs it in the follow-up turn', async () => {
    const model = script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo from-approval > approved.txt' } }] }, { text: 'parked it' }, { echo_prompt: true }]);
    home.writeConfig({ agents: { a: { model } } });
    // The command runs in the workspace (the working directory), never in PEPE_HOME.
    const inWs = (...args: string[]) => pepeCli(home.dir, args, {}, home.workspace);
    let r = await inWs('run', 'a', 'write it', '--json');
    assert.equal(r.exitCode, 0, r.stderr);
    const sessionId = JSON.parse(r.stdout.trim().split('\n').at(-1)!).sessionId;
    const pending = JSON.parse((await run('approvals', 'list', '--json')).stdout);
    assert.equal(pending.length, 1);
    assert.equal(existsSync(join(home.workspace, 'approved.txt')), false);
    r = await run('approvals', 'approve', pending[0].id.slice(0, 5));
    assert.equal(r.exitCode, 0, r.stderr);
    r = await inWs('run', 'a', 'and now?', '--session', sessionId, '--no-input');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(readFileSync(join(home.workspace, 'approved.txt'), 'utf8'), 'from-approval\n');
    assert.deepEqual(JSON.parse((await run('approvals', 'list', '--json')).stdout), []);
    assert.equal((await run('approvals', 'approve', 'ffffffff')).exitCode, 2);
  });

  it('sessions list and delete; usage reports tiers', async () => {
    home.writeConfig({ agents: { a: { model: 'mock', project: 'acme' } }, projects: { acme: { spend_cap_usd: 5 } } });
    await run('run', 'a', 'one');
    const list = JSON.parse((await run('sessions', 'list', 'a', '--json')).stdout);
    assert.equal(list.length, 1);
    assert.equal((await run('sessions', 'delete', 'a', list[0].id)).exitCode, 0);
    assert.deepEqual(JSON.parse((await run('sessions', 'list', '--json')).stdout), []);
    const usage = JSON.parse((await run('usage', '--project', 'acme', '--json')).stdout);
    assert.deepEqual({ ...usage, calls: undefined }, { project: 'acme', spendUsd: 0, capUsd: 5, tier: 'normal', calls: undefined });
  });
});
