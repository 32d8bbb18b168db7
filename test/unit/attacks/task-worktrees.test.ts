import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { git, TaskPlace } from '../tasks/helpers.js';
import { recordAttacks } from './record.js';

/**
 * Two background tasks at once (issue 28), each an agent whose commands run without asking
 * (auto_approve "*"): each tries to write the other task's worktree and the person's checkout.
 * The sandbox's only writable place for a task's commands is its own worktree, so both writes
 * are refused, while each writes its own. One is merged, one discarded; the checkout is
 * untouched until the merge.
 */
describe("attacks between background tasks: a task's commands write only its own worktree", function () {
  recordAttacks('task worktree attacks', "a task's commands cannot write another task's worktree or the checkout");
  this.timeout(180_000);
  let place: TaskPlace;
  before(ensureBuilt);
  beforeEach(() => {
    place = new TaskPlace();
  });
  afterEach(() => place.cleanup());

  const cli = (args: string[], cwd = place.checkout) => pepeCli(place.pepeHome, args, { PEPE_TASKS_HOME: place.data }, cwd);

  async function until(what: string, check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`gave up waiting for ${what}`);
  }

  it('each task writes its worktree only; merged and discarded; the checkout untouched until merge', async () => {
    // Run from its worktree: wait until both tasks have theirs, then try the other's and the checkout.
    const attack = [
      'for i in $(seq 1 300); do [ "$(ls .. | wc -l)" -ge 2 ] && break; sleep 0.1; done',
      'me=$(basename "$PWD")',
      'for d in ../*/; do [ "$(basename "$d")" = "$me" ] || echo pwned > "$d/pwned.txt" || echo "refused: other"; done',
      `echo pwned > ${join(place.checkout, 'pwned.txt')} || echo "refused: checkout"`,
      'echo "mine $me" > mine.txt',
    ].join('\n');
    const script = join(place.pepeHome, 's.json');
    writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [{ name: 'bash', arguments: { command: attack } }] }, { text: 'done' }] }));
    writeFileSync(join(place.pepeHome, 'config.json'), JSON.stringify({ agents: { a: { model: `mock:${script}`, auto_approve: '*' } } }));

    const one = await cli(['task', 'start', 'a', 'first', '--json']);
    assert.equal(one.exitCode, 0, one.stderr);
    const two = await cli(['task', 'start', 'a', 'second', '--json']);
    assert.equal(two.exitCode, 0, two.stderr);
    const [a, b] = [JSON.parse(one.stdout), JSON.parse(two.stdout)];
    const list = async () => JSON.parse((await cli(['task', 'list', '--json'])).stdout) as { id: string; status: string }[];
    await until('both tasks to end', async () => (await list()).every((t) => t.status === 'done' || t.status === 'failed'));
    assert.deepEqual((await list()).map((t) => t.status), ['done', 'done'], readdirSync(join(place.data, 'logs')).map((f) => readFileSync(join(place.data, 'logs', f), 'utf8')).join('\n'));

    for (const t of [a, b]) {
      assert.equal(readFileSync(join(t.worktree, 'mine.txt'), 'utf8'), `mine ${t.id}\n`);
      assert.equal(existsSync(join(t.worktree, 'pwned.txt')), false, `task ${t.id}'s worktree was written by the other`);
      // What the command saw: both writes refused (the transcript holds its output).
      const session = (await cli(['task', 'show', t.id, '--json'])).stdout;
      const { sessionId } = JSON.parse(session);
      const transcript = (await cli(['sessions', 'show', sessionId])).stdout;
      assert.match(transcript, /refused: other/);
      assert.match(transcript, /refused: checkout/);
    }
    assert.equal(existsSync(join(place.checkout, 'pwned.txt')), false, 'the checkout was written');
    assert.equal(git(place.checkout, 'status', '--porcelain'), '', 'the checkout is untouched until a merge');

    const merged = await cli(['task', 'merge', a.id.slice(0, 6)]);
    assert.equal(merged.exitCode, 0, merged.stderr);
    assert.match(merged.stdout, /fast-forward/);
    assert.equal(readFileSync(join(place.checkout, 'mine.txt'), 'utf8'), `mine ${a.id}\n`);
    const discarded = await cli(['task', 'discard', b.id]);
    assert.equal(discarded.exitCode, 0, discarded.stderr);
    assert.equal(existsSync(b.worktree), false);
    assert.equal(git(place.checkout, 'branch', '--list', b.branch), '');
    assert.deepEqual((await list()).map((t) => t.id), [a.id]);
  });
  it("a task's call approved from the person's checkout (as VS Code and pepe approvals approve do) still writes only the task's worktree", async () => {
    // The approving process's own workspace is the checkout; the call must run where it was parked,
    // with the task's worktree as its only writable root. Its target is read at run time from a
    // file the task's base holds, so only the sandbox (not the barrier's reading) can refuse it.
    writeFileSync(join(place.checkout, 'target.txt'), place.checkout);
    git(place.checkout, 'add', 'target.txt');
    git(place.checkout, 'commit', '-q', '-m', 'target');
    const attack = 'echo pwned > "$(cat target.txt)/pwned.txt" || echo "refused: checkout"; echo mine > mine.txt';
    const script = join(place.pepeHome, 's.json');
    writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [{ name: 'bash', arguments: { command: attack } }] }, { text: 'waiting' }, { text: 'done' }] }));
    writeFileSync(join(place.pepeHome, 'config.json'), JSON.stringify({ agents: { a: { model: `mock:${script}` } } }));
    const t = JSON.parse((await cli(['task', 'start', 'a', 'attack', '--json'])).stdout);
    const show = async () => JSON.parse((await cli(['task', 'show', t.id, '--json'])).stdout) as { status: string; sessionId: string };
    await until('the task to wait', async () => (await show()).status === 'waiting');
    const [parked] = JSON.parse((await cli(['approvals', 'list', '--json'])).stdout);
    const approved = await cli(['approvals', 'approve', parked.id], place.checkout);
    assert.equal(approved.exitCode, 0, approved.stderr);
    assert.match(approved.stdout, /refused: checkout/);
    await until('the task to end', async () => ['done', 'failed'].includes((await show()).status));
    assert.equal(existsSync(join(place.checkout, 'pwned.txt')), false, 'the checkout was written by an approved task call');
    assert.equal(readFileSync(join(t.worktree, 'mine.txt'), 'utf8'), 'mine\n');
    assert.equal(git(place.checkout, 'status', '--porcelain'), '');
  });
});
