import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { makeTempDir, removeDir } from '../permissions/helpers.js';
import { git, judgedByBarrier } from './git-attack-helpers.js';
import { recordAttacks } from './record.js';

/**
 * Review of the git check: besides `.git/config`, a project that arrives with its git folder can
 * make a plain `git status` run its own code through a hook git starts by itself
 * (`post-index-change`, found in `.git/hooks` or where `core.hooksPath` points), or by being laid
 * out as a bare repository (no `.git` at all: the folder itself is the git folder, and its
 * `config` is the one git reads).
 */

describe('review: git running a project\'s own code on a read-only command', function () {
  recordAttacks('git hook and bare-layout attacks', 'git status in a project with a hook git runs by itself, or laid out as a bare repository, is asked');
  this.timeout(20_000);
  let dir: string;
  let repo: string;
  before(() => loadShellGrammar());
  beforeEach(() => {
    dir = makeTempDir();
    repo = join(dir, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', 'a.txt');
    git(repo, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'a');
  });
  afterEach(() => removeDir(dir));

  const judged = (command: string, cwd: string) => judgedByBarrier(dir, command, cwd);

  function plantHook(hooks: string, marker: string): void {
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, 'post-index-change'), `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(join(hooks, 'post-index-change'), 0o755);
  }

  /** Makes the index stale so `git status` rewrites it (what a checkout or an edit does). */
  const touchTracked = () => utimesSync(join(repo, 'a.txt'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));

  it('the hazard is real: a post-index-change hook runs on a plain `git status`', () => {
    const marker = join(dir, 'hook-ran');
    plantHook(join(repo, '.git/hooks'), marker);
    touchTracked();
    git(repo, 'status', '--short');
    assert.ok(existsSync(marker), 'git did not run the hook');
  });

  it('`git status` in a repository whose .git/hooks has post-index-change is asked', async () => {
    plantHook(join(repo, '.git/hooks'), join(dir, 'x'));
    const r = await judged('git status', repo);
    assert.equal(r.allowed, false, 'git status ran without asking');
    assert.equal(r.asked.length, 1);
    assert.match(JSON.stringify(r.asked[0]), /post-index-change/);
  });

  it('`git status` with core.hooksPath naming a project folder that has the hook is asked', async () => {
    git(repo, 'config', 'core.hooksPath', '.githooks');
    plantHook(join(repo, '.githooks'), join(dir, 'x'));
    const r = await judged('git status', repo);
    assert.equal(r.allowed, false, 'git status ran without asking');
  });

  it('core.hooksPath to a folder without such hooks (husky, say) stays free', async () => {
    git(repo, 'config', 'core.hooksPath', '.husky/_');
    mkdirSync(join(repo, '.husky/_'), { recursive: true });
    writeFileSync(join(repo, '.husky/_/pre-commit'), '#!/bin/sh\n');
    const r = await judged('git status', repo);
    assert.equal(r.allowed, true, JSON.stringify(r.asked));
  });

  it('a plain repository with only the sample hooks stays free', async () => {
    const r = await judged('git status', repo);
    assert.equal(r.allowed, true, JSON.stringify(r.asked));
  });

  describe('a project laid out as a bare repository', () => {
    let bare: string;
    beforeEach(() => {
      bare = join(dir, 'download');
      mkdirSync(bare);
      git(bare, 'init', '-q', '--bare', '.');
    });

    it('the hazard is real: git reads ./config with no .git anywhere, and runs core.fsmonitor', () => {
      const marker = join(dir, 'fsmonitor-ran');
      writeFileSync(join(bare, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch '${marker}'; echo"\n`);
      try {
        git(bare, 'status', '--short');
      } catch {
        // the exit status does not matter: the program ran or not
      }
      assert.ok(existsSync(marker), 'git did not run the fsmonitor program');
    });

    it('`git status` there is asked', async () => {
      writeFileSync(join(bare, 'config'), `[core]\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch x; echo"\n`);
      const r = await judged('git status', bare);
      assert.equal(r.allowed, false, 'git status ran without asking');
      assert.equal(r.asked.length, 1);
    });
  });
});
