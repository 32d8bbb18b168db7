import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { globalConfigFiles } from '../../../src/core/tasks/identity.js';
import { git, TaskPlace } from './helpers.js';

/**
 * The commits of a task's work and of its merge are the person's (issue 28): their git identity
 * from their environment, their repository's configuration or their global one; "Pepe task" only
 * when none is set, and then the outcome says so. Real git throughout.
 */
describe("background tasks: commits by the person's git identity", function () {
  this.timeout(60_000);
  let place: TaskPlace;
  let home: string;
  /** The person's environment: a home of their own (no global configuration unless a test writes one), no GIT_AUTHOR_*. */
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    place = new TaskPlace();
    home = join(place.root, 'person');
    mkdirSync(home);
    env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    for (const k of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_CONFIG_GLOBAL']) delete env[k];
  });
  afterEach(() => place.cleanup());

  const author = (ref: string) => git(place.checkout, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', ref);
  async function doneTask(text = 'add b') {
    const tasks = place.service(4, env);
    const t = await tasks.create({ agent: 'a', text, cwd: place.checkout });
    tasks.store.update(t.id, () => ({ status: 'done' }));
    writeFileSync(join(t.worktree, 'b.txt'), 'bee\n');
    return { tasks, t };
  }

  it("merge commits the task's work and the merge commit by the repository's user.name and user.email", async () => {
    git(place.checkout, 'config', 'user.name', 'Pat Person');
    git(place.checkout, 'config', 'user.email', 'pat@example.invalid');
    const { tasks, t } = await doneTask();
    writeFileSync(join(place.checkout, 'other.txt'), 'moved on\n');
    git(place.checkout, 'add', 'other.txt');
    git(place.checkout, 'commit', '-q', '-m', 'the person moves on');
    const { outcome, identity } = await tasks.merge(t.id);
    assert.equal(outcome.kind === 'merged' && outcome.how, 'merge-commit');
    assert.deepEqual(identity, { name: 'Pat Person', email: 'pat@example.invalid', from: 'repository' });
    assert.equal(author('HEAD'), 'Pat Person <pat@example.invalid>|Pat Person <pat@example.invalid>');
    assert.equal(author(t.branch), 'Pat Person <pat@example.invalid>|Pat Person <pat@example.invalid>');
  });

  it('the global configuration (~/.gitconfig) when the repository sets none; the environment before either', async () => {
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Glo Bal\n\temail = glo@example.invalid\n');
    const { tasks, t } = await doneTask();
    const first = await tasks.commit(t.id);
    assert.equal(first.made, true);
    assert.equal(first.identity.from, 'global');
    assert.equal(author(t.branch), 'Glo Bal <glo@example.invalid>|Glo Bal <glo@example.invalid>');
    writeFileSync(join(t.worktree, 'c.txt'), 'see\n');
    env.GIT_AUTHOR_NAME = 'En Vee';
    env.GIT_AUTHOR_EMAIL = 'env@example.invalid';
    const second = await place.service(4, env).commit(t.id);
    assert.deepEqual(second.identity, { name: 'En Vee', email: 'env@example.invalid', from: 'environment' });
    assert.equal(author(t.branch), 'En Vee <env@example.invalid>|En Vee <env@example.invalid>');
  });

  it('with no identity anywhere: "Pepe task", and the outcome says it is the fallback', async () => {
    const { tasks, t } = await doneTask();
    const { outcome, identity } = await tasks.merge(t.id);
    assert.equal(outcome.kind, 'merged');
    assert.equal(identity.from, 'fallback');
    assert.equal(author('HEAD'), 'Pepe task <tasks@pepe.invalid>|Pepe task <tasks@pepe.invalid>');
  });

  it("the task's worktree cannot choose the identity: a .git file it rewrote, and a value that is not a plain line, are not used", async () => {
    git(place.checkout, 'config', 'user.name', 'Pat Person');
    git(place.checkout, 'config', 'user.email', 'pat@example.invalid');
    const { tasks, t } = await doneTask();
    // The agent's commands can write the worktree's .git file: point it at a repository of theirs.
    const fake = join(place.root, 'fake');
    mkdirSync(fake);
    git(fake, 'init', '-q');
    git(fake, 'config', 'user.name', 'Mallory');
    git(fake, 'config', 'user.email', 'mallory@example.invalid');
    writeFileSync(join(t.worktree, '.git'), `gitdir: ${join(fake, '.git')}\n`);
    const { identity } = await tasks.commit(t.id);
    assert.equal(identity.name, 'Pat Person');
    assert.equal(git(place.checkout, 'log', '-1', '--format=%an', t.branch), 'Pat Person');
    git(place.checkout, 'config', 'user.name', 'Pat <evil@example.invalid>');
    assert.equal((await tasks.commit(t.id)).identity.from, 'fallback');
    // Invisible format characters would make the name read otherwise than it is: a right-to-left
    // override, a zero-width space.
    for (const name of ['Pat \u202Eevil', 'Pat\u200BPerson']) {
      git(place.checkout, 'config', 'user.name', name);
      assert.equal((await tasks.commit(t.id)).identity.from, 'fallback', JSON.stringify(name));
    }
  });

  it("commit: a message of the person's; nothing new is said; a running task is refused; the checkout is untouched", async () => {
    git(place.checkout, 'config', 'user.name', 'Pat Person');
    git(place.checkout, 'config', 'user.email', 'pat@example.invalid');
    const { tasks, t } = await doneTask('add b');
    const head = git(place.checkout, 'rev-parse', 'HEAD');
    const made = await tasks.commit(t.id, { message: 'Add b.txt\n\nFor the pull request.' });
    assert.equal(made.made, true);
    assert.equal(git(place.checkout, 'log', '-1', '--format=%B', t.branch).trim(), 'Add b.txt\n\nFor the pull request.');
    assert.equal(git(place.checkout, 'rev-parse', t.branch), made.commit);
    assert.equal(git(place.checkout, 'rev-parse', `${t.branch}~1`), t.baseCommit);
    const again = await tasks.commit(t.id);
    assert.deepEqual([again.made, again.commit], [false, made.commit]);
    assert.equal(git(place.checkout, 'rev-parse', 'HEAD'), head);
    assert.equal(git(place.checkout, 'status', '--porcelain'), '');
    await assert.rejects(tasks.commit(t.id, { message: '  ' }), /message is empty/);
    tasks.store.update(t.id, () => ({ status: 'running', pid: process.pid }));
    await assert.rejects(tasks.commit(t.id), /still running; stop it first/);
    // A merge afterwards brings the committed work in.
    tasks.store.update(t.id, () => ({ status: 'done', pid: undefined }));
    const { outcome } = await tasks.merge(t.id);
    assert.equal(outcome.kind === 'merged' && outcome.commit, made.commit);
  });

  it('the global files git reads: GIT_CONFIG_GLOBAL alone when set, else ~/.gitconfig before the XDG one', () => {
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    writeFileSync(join(home, '.config', 'git', 'config'), '');
    writeFileSync(join(home, '.gitconfig'), '');
    assert.deepEqual(globalConfigFiles({ HOME: home, XDG_CONFIG_HOME: join(home, '.config') }), [join(home, '.gitconfig'), join(home, '.config', 'git', 'config')]);
    assert.deepEqual(globalConfigFiles({ HOME: home, GIT_CONFIG_GLOBAL: join(home, '.gitconfig') }), [join(home, '.gitconfig')]);
    assert.deepEqual(globalConfigFiles({ HOME: home, GIT_CONFIG_GLOBAL: '/dev/null/none' }), []);
  });
});
