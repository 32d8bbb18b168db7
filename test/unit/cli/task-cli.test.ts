import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { git, TaskPlace } from '../tasks/helpers.js';

describe('pepe task: approvals from a task, stop, and the help text', function () {
  this.timeout(180_000);
  let place: TaskPlace;
  before(ensureBuilt);
  beforeEach(() => {
    place = new TaskPlace();
  });
  afterEach(() => place.cleanup());

  const cli = (args: string[], cwd = place.checkout) => pepeCli(place.pepeHome, args, { PEPE_TASKS_HOME: place.data }, cwd);
  const agent = (steps: unknown[]) => {
    const script = join(place.pepeHome, 's.json');
    writeFileSync(script, JSON.stringify({ steps }));
    writeFileSync(join(place.pepeHome, 'config.json'), JSON.stringify({ agents: { a: { model: `mock:${script}` } } }));
  };
  const status = async (id: string) => JSON.parse((await cli(['task', 'show', id, '--json'])).stdout) as { status: string; waitingFor?: string[]; turns: number; worktree: string };
  async function until(what: string, check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`gave up waiting for ${what}`);
  }

  it('a gated call parks with the task named; the task waits, and goes on once it is approved', async () => {
    agent([{ tool_calls: [{ name: 'bash', arguments: { command: 'echo approved > out.txt' } }] }, { text: 'waiting for you' }, { text: 'all done' }]);
    const started = await cli(['task', 'start', 'a', 'write out.txt', '--json']);
    assert.equal(started.exitCode, 0, started.stderr);
    const t = JSON.parse(started.stdout);
    await until('the task to wait', async () => (await status(t.id)).status === 'waiting');
    const listed = await cli(['approvals', 'list']);
    assert.match(listed.stdout, /TASK/);
    assert.match(listed.stdout, new RegExp(t.id));
    const [parked] = JSON.parse((await cli(['approvals', 'list', '--json'])).stdout);
    assert.equal(parked.task, t.id);
    assert.match((await cli(['task', 'list'])).stdout, /waiting for approval/);
    const approved = await cli(['approvals', 'approve', parked.id]);
    assert.equal(approved.exitCode, 0, approved.stderr);
    assert.match(approved.stdout, new RegExp(`task ${t.id}`));
    await until('the task to end', async () => ['done', 'failed'].includes((await status(t.id)).status));
    const end = await status(t.id);
    assert.equal(end.status, 'done');
    assert.equal(end.turns, 2);
    assert.equal(readFileSync(join(t.worktree, 'out.txt'), 'utf8'), 'approved\n');
    assert.equal(existsSync(join(place.checkout, 'out.txt')), false);
    assert.match((await cli(['task', 'diff', t.id.slice(0, 5)])).stdout, /\+approved/);
  });

  it('an approved call that runs in the approving process is waited for: the task ends after it, told its result', async () => {
    // The person approves from elsewhere (VS Code's queue, or here `approvals approve`), which runs
    // the call itself; the task must not take its next turn (and end) while that call still runs.
    agent([{ tool_calls: [{ name: 'bash', arguments: { command: 'sleep 3; echo late > late.txt' } }] }, { text: 'waiting for you' }, { text: 'all done' }]);
    const t = JSON.parse((await cli(['task', 'start', 'a', 'write late.txt', '--json'])).stdout);
    await until('the task to wait', async () => (await status(t.id)).status === 'waiting');
    const [parked] = JSON.parse((await cli(['approvals', 'list', '--json'])).stdout);
    const approving = cli(['approvals', 'approve', parked.id]);
    await until('the task to end', async () => ['done', 'failed'].includes((await status(t.id)).status));
    assert.equal(existsSync(join(t.worktree, 'late.txt')), true, 'the task ended while its approved command still ran');
    const approved = await approving;
    assert.equal(approved.exitCode, 0, approved.stderr);
    const end = await status(t.id);
    assert.equal(end.status, 'done');
    const { sessionId } = JSON.parse((await cli(['task', 'show', t.id, '--json'])).stdout);
    const transcript = (await cli(['sessions', 'show', sessionId])).stdout;
    assert.match(transcript, new RegExp(`approved the parked call ${parked.id}[^\\n]*; it ran`), 'the follow-up turn tells the agent how the call went');
  });

  it('stop ends a waiting task as stopped and leaves its worktree; an unknown or ambiguous id is a usage error', async () => {
    agent([{ tool_calls: [{ name: 'bash', arguments: { command: 'echo x > x.txt' } }] }, { text: 'waiting' }]);
    const t = JSON.parse((await cli(['task', 'start', 'a', 'x', '--json'])).stdout);
    await until('the task to wait', async () => (await status(t.id)).status === 'waiting');
    const stopped = await cli(['task', 'stop', t.id]);
    assert.equal(stopped.exitCode, 0, stopped.stderr);
    await until('the task to stop', async () => (await status(t.id)).status === 'stopped');
    assert.ok(existsSync(t.worktree));
    const none = await cli(['task', 'show', 'zzzz']);
    assert.equal(none.exitCode, 2);
    assert.match(none.stderr, /no task zzzz/);
    assert.equal((await cli(['task', 'start', 'nobody', 'x'])).exitCode, 2);
    assert.equal(git(place.checkout, 'status', '--porcelain'), '');
  });

  it('--help names every subcommand and the tasks folder', async () => {
    const r = await cli(['task', '--help']);
    for (const word of ['start', 'list', 'show', 'diff', 'commit', 'merge', 'discard', 'stop', 'PEPE_TASKS_HOME']) assert.match(r.stdout, new RegExp(word));
    assert.doesNotMatch(r.stdout, /_run/);
    const commit = await cli(['task', 'commit', '--help']);
    for (const word of ['--message', 'git push', 'user.name', 'Pepe task']) assert.match(commit.stdout, new RegExp(word));
  });

  it("commit puts the task's work on its branch for a pull request, by the person's identity or a fallback it names", async () => {
    const home = join(place.root, 'person');
    mkdirSync(home);
    const asPerson = (args: string[]) => pepeCli(place.pepeHome, args, { PEPE_TASKS_HOME: place.data, HOME: home }, place.checkout);
    const tasks = place.service();
    const t = await tasks.create({ agent: 'a', text: 'add b', cwd: place.checkout });
    tasks.store.update(t.id, () => ({ status: 'done' }));
    writeFileSync(join(t.worktree, 'b.txt'), 'bee\n');
    const fallback = await asPerson(['task', 'commit', t.id.slice(0, 6)]);
    assert.equal(fallback.exitCode, 0, fallback.stderr);
    assert.match(fallback.stdout, new RegExp(`committed task ${t.id}'s work on its branch pepe/task-${t.id} \\([0-9a-f]{12}, by Pepe task <tasks@pepe.invalid>\\)`));
    assert.match(fallback.stdout, new RegExp(`git push <remote> pepe/task-${t.id}`));
    assert.match(fallback.stdout, /no git identity is set .*git config --global user.name/);
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Pat Person\n\temail = pat@example.invalid\n');
    writeFileSync(join(t.worktree, 'c.txt'), 'see\n');
    const mine = await asPerson(['task', 'commit', t.id, '--message', 'Add c.txt']);
    assert.equal(mine.exitCode, 0, mine.stderr);
    assert.match(mine.stdout, /by Pat Person <pat@example.invalid>\)/);
    assert.doesNotMatch(mine.stdout, /no git identity/);
    assert.equal(git(place.checkout, 'log', '-1', '--format=%an|%s', t.branch), 'Pat Person|Add c.txt');
    assert.match((await asPerson(['task', 'commit', t.id])).stdout, /nothing new to commit/);
    assert.equal(git(place.checkout, 'status', '--porcelain'), '');
  });
});
