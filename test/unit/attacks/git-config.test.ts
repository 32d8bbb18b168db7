import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalRequest } from '../../../src/core/permissions/approval.js';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { makeTempDir, removeDir } from '../permissions/helpers.js';
import { git, judgedByBarrier } from './git-attack-helpers.js';
import { recordAttacks } from './record.js';

/**
 * A hostile repository configuration (issue 13): `.git/config` arrives with a downloaded project
 * and names programs git runs by itself — `core.fsmonitor` on `git status`, `gpg.program` on
 * `git log` with `log.showSignature`, a `filter` driver on `git status`. The barrier treats those
 * git subcommands as harmless; in such a repository it must ask instead.
 */

describe('attacks through a repository\'s git configuration', function () {
  recordAttacks('git configuration attacks', 'git subcommands that would run a configured program are asked');
  this.timeout(20_000);
  let dir: string;
  let repo: string;
  before(() => loadShellGrammar());
  beforeEach(() => {
    dir = makeTempDir();
    repo = join(dir, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
  });
  afterEach(() => removeDir(dir));

  const judged = (command: string, cwd = repo) => judgedByBarrier(dir, command, cwd);

  async function mustAsk(command: string, cwd = repo): Promise<ApprovalRequest> {
    const r = await judged(command, cwd);
    assert.equal(r.allowed, false, `${command} ran without asking`);
    assert.equal(r.asked.length, 1, `${command}: the person was not asked`);
    return r.asked[0]!;
  }

  it('the hazard is real: core.fsmonitor makes a plain `git status` run a program', () => {
    const marker = join(dir, 'fsmonitor-ran');
    appendFileSync(join(repo, '.git/config'), `[core]\n\tfsmonitor = "touch ${marker}; false"\n`);
    try {
      git(repo, 'status');
    } catch {
      // git may complain about the monitor's answer; what matters is that it ran
    }
    assert.ok(existsSync(marker), 'git status did not run core.fsmonitor (the attack below would be moot)');
  });

  it('an ordinary repository: `git status` and `git log --oneline` still run without asking', async () => {
    assert.deepEqual(await judged('git status'), { allowed: true, asked: [] });
    assert.deepEqual(await judged('git log --oneline -n 5'), { allowed: true, asked: [] });
    mkdirSync(join(repo, 'sub'));
    assert.deepEqual(await judged('git status', join(repo, 'sub')), { allowed: true, asked: [] }, 'from a sub-folder, the repository above is found');
  });

  const hostile: Record<string, string> = {
    'core.fsmonitor': '[core]\n\tfsmonitor = ./.hook\n',
    'core.fsmonitor, spelled in another case and on the header line': '[CoRe] FsMonitor=./.hook\n',
    'gpg.program with log.showSignature': '[log]\n\tshowSignature = true\n[gpg]\n\tprogram = ./.hook\n',
    'gpg.ssh.program': '[gpg "ssh"]\n\tprogram = ./.hook\n',
    'a filter driver (run by status on changed files)': '[filter "lfs"]\n\tclean = ./.hook %f\n',
    'a textconv driver': '[diff "bin"]\n\ttextconv = ./.hook\n',
    'core.pager': '[core]\n\tpager = ./.hook\n',
    'an include of another file': '[include]\n\tpath = ../elsewhere.cfg\n',
    'a conditional include': '[includeIf "gitdir:/"]\n\tpath = ../elsewhere.cfg\n',
    'a line the reader cannot make sense of': '[core\n\tfsmonitor = ./.hook\n',
  };
  for (const [name, text] of Object.entries(hostile)) {
    it(`${name}: \`git status\` and \`git log\` are asked`, async () => {
      appendFileSync(join(repo, '.git/config'), text);
      const req = await mustAsk('git status');
      assert.ok(req.riskHints.some((h) => /configuration/.test(h.detail ?? '')), JSON.stringify(req.riskHints));
      await mustAsk('git log --oneline');
    });
  }

  it('a configuration too large to read in full is asked', async () => {
    appendFileSync(join(repo, '.git/config'), `[user]\n${'\tname = x\n'.repeat(20_000)}`);
    await mustAsk('git status');
  });

  it('a `.git` file pointing at a hostile git folder elsewhere is followed', async () => {
    const other = join(dir, 'other');
    mkdirSync(other);
    git(other, 'init', '-q');
    appendFileSync(join(other, '.git/config'), '[core]\n\tfsmonitor = ./.hook\n');
    const wt = join(dir, 'wt');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${join(other, '.git')}\n`);
    await mustAsk('git status', wt);
  });

  it('a hostile submodule configuration (status recurses into submodules) is asked', async () => {
    mkdirSync(join(repo, '.git/modules/vendor'), { recursive: true });
    writeFileSync(join(repo, '.git/modules/vendor/config'), '[core]\n\tfsmonitor = ./.hook\n');
    await mustAsk('git status');
  });

  it('git after a change of folder (another repository the barrier did not read) is asked', async () => {
    const inner = join(repo, 'vendor');
    mkdirSync(inner);
    git(inner, 'init', '-q');
    appendFileSync(join(inner, '.git/config'), '[core]\n\tfsmonitor = ./.hook\n');
    await mustAsk('cd vendor && git status');
    await mustAsk('pushd vendor; git log');
  });
});
