import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, TaskPlace } from '../tasks/helpers.js';
import { recordAttacks } from './record.js';

/**
 * A cloned repository's `.git/config` is whatever its author wrote (issue 28): making a task's
 * worktree checks files out (a filter's smudge program), its diff and its commit add them (clean),
 * its merge may pick a merge driver, and hooks would run on checkout, commit and merge. Pepe's own
 * git for tasks must run none of them.
 */
describe("attacks on background tasks through the repository's git configuration", function () {
  recordAttacks('task git configuration attacks', "no program named by the repository's configuration runs");
  this.timeout(90_000);
  let place: TaskPlace;
  let marker: string;
  beforeEach(() => {
    place = new TaskPlace();
    marker = join(place.root, 'ran');
    const c = place.checkout;
    writeFileSync(join(c, '.gitattributes'), '*.txt filter=evil merge=evil\n');
    git(c, 'add', '.gitattributes');
    git(c, 'commit', '-q', '-m', 'attributes');
    const hit = (what: string) => `sh -c 'echo ${what} >> ${marker}; cat'`;
    git(c, 'config', 'filter.evil.smudge', hit('smudge'));
    git(c, 'config', 'filter.evil.clean', hit('clean'));
    git(c, 'config', 'filter.evil.required', 'true');
    git(c, 'config', 'merge.evil.driver', `sh -c 'echo merge >> ${marker}; exit 0'`);
    git(c, 'config', 'core.fsmonitor', `sh -c 'echo fsmonitor >> ${marker}'`);
    git(c, 'config', 'core.hooksPath', join(c, 'hooks'));
    for (const hook of ['post-checkout', 'pre-commit', 'post-commit', 'post-merge', 'pre-merge-commit', 'reference-transaction']) {
      writeFileSync(join(c, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> ${marker}\n`, { mode: 0o755 });
    }
  });
  afterEach(() => place.cleanup());

  it('the hazard is real: plain git in this repository runs them', () => {
    git(place.checkout, 'checkout', '-q', '-b', 'probe');
    writeFileSync(join(place.checkout, 'a.txt'), 'x\n');
    git(place.checkout, 'add', 'a.txt');
    assert.ok(existsSync(marker), 'the filter ran');
  });

  for (const [how, env] of [
    ['disarmed alone (no sandbox)', { ...process.env, PEPE_TASKS_GIT: 'unconfined' }],
    ['disarmed and confined', process.env],
  ] as const) {
  it(`${how}: creating, diffing, committing, merging and discarding a task runs none of them`, async () => {
    const tasks = place.service(4, env);
    const t = await tasks.create({ agent: 'a', text: 'x', cwd: place.checkout });
    assert.equal(readFileSync(join(t.worktree, 'a.txt'), 'utf8'), 'one\n');
    writeFileSync(join(t.worktree, 'a.txt'), 'two\n');
    writeFileSync(join(t.worktree, 'b.txt'), 'bee\n');
    await tasks.diff(t.id);
    // The checkout moves on elsewhere, so the merge is a real one (a merge driver's turn).
    writeFileSync(join(place.checkout, 'c.md'), 'see\n');
    execaGit(place.checkout, 'add', 'c.md');
    execaGit(place.checkout, 'commit', '-q', '-m', 'person');
    tasks.store.update(t.id, () => ({ status: 'done' }));
    const { outcome } = await tasks.merge(t.id);
    assert.equal(outcome.kind, 'merged', JSON.stringify(outcome));
    const other = await tasks.create({ agent: 'a', text: 'y', cwd: place.checkout });
    tasks.store.update(other.id, () => ({ status: 'done' }));
    await tasks.discard(other.id);
    assert.equal(existsSync(marker) ? readFileSync(marker, 'utf8') : '', '', 'a program the repository named ran');
  });
  }

  it('a merge driver the repository names does not run: a clash is reported as a conflict', async () => {
    const tasks = place.service(4, { ...process.env, PEPE_TASKS_GIT: 'unconfined' });
    const t = await tasks.create({ agent: 'a', text: 'x', cwd: place.checkout });
    writeFileSync(join(t.worktree, 'a.txt'), 'agent\n');
    writeFileSync(join(place.checkout, 'a.txt'), 'person\n');
    execaGit(place.checkout, 'commit', '-q', '-am', 'person');
    tasks.store.update(t.id, () => ({ status: 'done' }));
    const { outcome } = await tasks.merge(t.id);
    assert.deepEqual(outcome, { kind: 'conflict', files: ['a.txt'] });
    assert.equal(existsSync(marker) ? readFileSync(marker, 'utf8') : '', '', 'a program the repository named ran');
  });
});

/** The test's own git without the repository's hooks and filters (it sets up, it is not under test). */
function execaGit(cwd: string, ...args: string[]): void {
  git(cwd, '-c', 'core.hooksPath=/dev/null', '-c', 'filter.evil.clean=cat', '-c', 'filter.evil.smudge=cat', '-c', 'core.fsmonitor=false', ...args);
}
