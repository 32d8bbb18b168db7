import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, TaskPlace } from './helpers.js';

describe('background tasks: worktrees, diffs, merges and discards with real git', function () {
  this.timeout(60_000);
  let place: TaskPlace;
  beforeEach(() => {
    place = new TaskPlace();
  });
  afterEach(() => place.cleanup());

  it('a task gets a worktree on a new branch from HEAD, outside the checkout; its diff shows new and changed files', async () => {
    const tasks = place.service();
    const t = await tasks.create({ agent: 'a', text: 'do it', cwd: place.checkout });
    assert.equal(t.branch, `pepe/task-${t.id}`);
    assert.ok(t.worktree.startsWith(join(place.data, 'worktrees')), t.worktree);
    assert.equal(t.baseCommit, git(place.checkout, 'rev-parse', 'HEAD'));
    assert.equal(readFileSync(join(t.worktree, 'a.txt'), 'utf8'), 'one\n');
    writeFileSync(join(t.worktree, 'a.txt'), 'one\ntwo\n');
    writeFileSync(join(t.worktree, 'new.txt'), 'fresh\n');
    const { diff } = await tasks.diff(t.id.slice(0, 4));
    assert.deepEqual(diff.files, [{ status: 'M', path: 'a.txt' }, { status: 'A', path: 'new.txt' }]);
    assert.match(diff.patch, /\+two/);
    assert.match(diff.patch, /\+fresh/);
    // The diff changed nothing: the worktree's own index and the branch are as they were.
    assert.equal(git(t.worktree, 'status', '--porcelain'), ' M a.txt\n?? new.txt');
    assert.equal(git(place.checkout, 'rev-parse', t.branch), t.baseCommit);
    assert.equal(git(place.checkout, 'status', '--porcelain'), '');
  });

  it('--base starts from another commit; an unknown base is refused and nothing is made', async () => {
    const first = git(place.checkout, 'rev-parse', 'HEAD');
    writeFileSync(join(place.checkout, 'a.txt'), 'later\n');
    git(place.checkout, 'commit', '-q', '-am', 'second');
    const tasks = place.service();
    const t = await tasks.create({ agent: 'a', text: 'x', cwd: place.checkout, base: 'HEAD~1' });
    assert.equal(t.baseCommit, first);
    assert.equal(readFileSync(join(t.worktree, 'a.txt'), 'utf8'), 'one\n');
    await assert.rejects(tasks.create({ agent: 'a', text: 'x', cwd: place.checkout, base: 'no-such-branch' }), /names no commit/);
    await assert.rejects(tasks.create({ agent: 'a', text: 'x', cwd: place.checkout, base: '--output=/x' }), /not a git revision/);
    assert.equal(tasks.list().length, 1);
  });

  it('merge fast-forwards when the checkout has not moved; the checkout is untouched until then', async () => {
    const tasks = place.service();
    const t = await tasks.create({ agent: 'a', text: 'add b', cwd: place.checkout });
    tasks.store.update(t.id, () => ({ status: 'done' }));
    writeFileSync(join(t.worktree, 'b.txt'), 'bee\n');
    assert.equal(existsSync(join(place.checkout, 'b.txt')), false);
    const { outcome } = await tasks.merge(t.id);
    assert.equal(outcome.kind, 'merged');
    assert.equal(outcome.kind === 'merged' && outcome.how, 'fast-forward');
    assert.equal(readFileSync(join(place.checkout, 'b.txt'), 'utf8'), 'bee\n');
    assert.equal(git(place.checkout, 'status', '--porcelain'), '');
    assert.match(git(place.checkout, 'log', '-1', '--format=%s'), /add b/);
    await assert.rejects(tasks.merge(t.id), /merged already/);
  });

  it('merge makes a merge commit when the checkout moved on, and reports a conflict without changing anything', async () => {
    const tasks = place.service();
    const clean = await tasks.create({ agent: 'a', text: 'clean', cwd: place.checkout });
    const clash = await tasks.create({ agent: 'a', text: 'clash', cwd: place.checkout });
    for (const t of [clean, clash]) tasks.store.update(t.id, () => ({ status: 'done' }));
    writeFileSync(join(place.checkout, 'a.txt'), 'person\n');
    git(place.checkout, 'commit', '-q', '-am', 'the person moves on');
    writeFileSync(join(clean.worktree, 'c.txt'), 'see\n');
    writeFileSync(join(clash.worktree, 'a.txt'), 'agent\n');
    const head = git(place.checkout, 'rev-parse', 'HEAD');
    const conflict = await tasks.merge(clash.id);
    assert.deepEqual(conflict.outcome, { kind: 'conflict', files: ['a.txt'] });
    assert.equal(git(place.checkout, 'rev-parse', 'HEAD'), head, 'the checkout did not move');
    assert.equal(git(place.checkout, 'status', '--porcelain'), '');
    assert.equal(readFileSync(join(place.checkout, 'a.txt'), 'utf8'), 'person\n');
    const merged = await tasks.merge(clean.id);
    assert.equal(merged.outcome.kind === 'merged' && merged.outcome.how, 'merge-commit');
    assert.equal(git(place.checkout, 'rev-list', '--parents', '-n1', 'HEAD').split(' ').length, 3);
    assert.equal(readFileSync(join(place.checkout, 'c.txt'), 'utf8'), 'see\n');
  });

  it('local changes in the way are reported, never overwritten', async () => {
    const tasks = place.service();
    const t = await tasks.create({ agent: 'a', text: 'x', cwd: place.checkout });
    tasks.store.update(t.id, () => ({ status: 'done' }));
    writeFileSync(join(t.worktree, 'a.txt'), 'agent\n');
    writeFileSync(join(place.checkout, 'a.txt'), 'unsaved work\n');
    const { outcome } = await tasks.merge(t.id);
    assert.equal(outcome.kind, 'refused');
    assert.equal(readFileSync(join(place.checkout, 'a.txt'), 'utf8'), 'unsaved work\n');
  });

  it('discard removes the worktree, the branch and the record; a live task is refused', async () => {
    const tasks = place.service();
    const t = await tasks.create({ agent: 'a', text: 'x', cwd: place.checkout });
    tasks.store.update(t.id, () => ({ status: 'running', pid: process.pid }));
    await assert.rejects(tasks.discard(t.id), /still running; stop it first/);
    await assert.rejects(tasks.merge(t.id), /still running; stop it first/);
    tasks.store.update(t.id, () => ({ status: 'stopped', pid: undefined }));
    await tasks.discard(t.id);
    assert.equal(existsSync(t.worktree), false);
    assert.equal(git(place.checkout, 'branch', '--list', t.branch), '');
    assert.equal(git(place.checkout, 'worktree', 'list', '--porcelain').includes(t.worktree), false);
    assert.deepEqual(tasks.list(), []);
  });

  it('limits.max_tasks: no more than that many run at once', async () => {
    const tasks = place.service(1);
    const t = await tasks.create({ agent: 'a', text: 'x', cwd: place.checkout });
    tasks.store.update(t.id, () => ({ status: 'running', pid: process.pid }));
    await assert.rejects(tasks.create({ agent: 'a', text: 'y', cwd: place.checkout }), /1 tasks are running and limits\.max_tasks is 1/);
    tasks.store.update(t.id, () => ({ status: 'done', pid: undefined }));
    await tasks.create({ agent: 'a', text: 'y', cwd: place.checkout });
  });

  it('a running task whose process is gone is shown failed', async () => {
    const tasks = place.service();
    const t = await tasks.create({ agent: 'a', text: 'x', cwd: place.checkout });
    tasks.store.update(t.id, () => ({ status: 'running', pid: 2 ** 22 + 12345 }));
    const [seen] = tasks.list();
    assert.equal(seen!.status, 'failed');
    assert.match(seen!.error ?? '', /ended without reporting/);
  });
});
