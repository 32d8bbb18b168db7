import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '../helpers/agents.js';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

describe('pepe approvals approve runs the call now', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('prints the result, wrote in the workspace where it was parked, and the next turn is told once', async () => {
    const model = script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo from-approval > approved.txt; echo done-now' } }] }, { text: 'parked it' }, { echo_prompt: true }, { echo_prompt: true }]);
    home.writeConfig({ agents: { a: { model } } });
    const inWs = (...args: string[]) => pepeCli(home.dir, args, {}, home.workspace);
    let r = await inWs('run', 'a', 'write it', '--json');
    assert.equal(r.exitCode, 0, r.stderr);
    const sessionId = JSON.parse(r.stdout.trim().split('\n').at(-1)!).sessionId;
    const [parked] = JSON.parse((await pepeCli(home.dir, ['approvals', 'list', '--json'])).stdout);
    // Approved from another directory (PEPE_HOME): it still runs where it was parked.
    r = await pepeCli(home.dir, ['approvals', 'approve', parked.id]);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`approved ${parked.id} \\(a: bash\\); it ran:`));
    assert.match(r.stdout, /done-now/);
    assert.equal(readFileSync(join(home.workspace, 'approved.txt'), 'utf8'), 'from-approval\n');
    r = await inWs('run', 'a', 'and now?', '--session', sessionId, '--no-input');
    assert.match(r.stdout, new RegExp(`approved the parked call ${parked.id}.*it ran`, 's'));
    assert.match(r.stdout, /done-now/);
    rmSync(join(home.workspace, 'approved.txt'));
    r = await inWs('run', 'a', 'again', '--session', sessionId, '--no-input');
    // The prompt echoed holds the history: the earlier turn's note and that turn's echo of it; a third would be a second telling.
    assert.equal(r.stdout.split('<resolved-approvals>').length - 1, 2, 'told once');
    assert.equal(existsSync(join(home.workspace, 'approved.txt')), false, 'run once');
  });

  it('an approval for a removed agent is refused with exit 2 and stays pending', async () => {
    const model = script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo x > gone.txt' } }] }, { text: 'parked it' }]);
    home.writeConfig({ agents: { a: { model }, b: { model: 'mock' } } });
    await pepeCli(home.dir, ['run', 'a', 'write it'], {}, home.workspace);
    const [parked] = JSON.parse((await pepeCli(home.dir, ['approvals', 'list', '--json'])).stdout);
    assert.equal((await pepeCli(home.dir, ['agent', 'remove', 'a'])).exitCode, 0);
    const r = await pepeCli(home.dir, ['approvals', 'approve', parked.id]);
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /agent a no longer exists/);
    assert.equal(JSON.parse((await pepeCli(home.dir, ['approvals', 'list', '--json'])).stdout)[0].status, 'pending');
    assert.equal(existsSync(join(home.workspace, 'gone.txt')), false);
  });
});
