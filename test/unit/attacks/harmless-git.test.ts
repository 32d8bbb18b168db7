import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { makeTempDir, removeDir } from '../permissions/helpers.js';
import { judgedByBarrier } from './git-attack-helpers.js';
import { GIT_LAYOUTS, hostileProgram } from './git-layouts.js';
import { recordAttacks } from './record.js';

/**
 * Harmless git that is not (issue 21): the barrier lets `git status` run unasked, but from a
 * repository whose submodule (its git folder under .git/modules/a/b) or embedded repository (a
 * gitlink with no .gitmodules) names core.fsmonitor, git enters that repository and runs the
 * program. Each layout alone in its own workspace; in every folder where git would obey what was
 * planted, the read-only git commands are asked, and the reason names the nested repository.
 *
 * Failed against bfd1589: `git status` at the top of the embedded-repository layout ran without
 * asking (only the top .git folder and .git/modules were read; the submodule layout was already
 * asked, through .git/modules/a/b/config).
 */
describe('attacks: harmless git in a repository that enters a hostile one', function () {
  recordAttacks('harmless git', 'read-only git is asked where git would enter a repository naming a program');
  this.timeout(120_000);
  let dir: string;
  before(() => loadShellGrammar());
  beforeEach(() => {
    dir = makeTempDir('pepe-hgit-');
  });
  afterEach(() => removeDir(dir));

  for (const layout of GIT_LAYOUTS) {
    it(layout.name, async () => {
      const ws = join(dir, 'ws');
      mkdirSync(ws);
      writeFileSync(join(ws, 'notes.txt'), 'notes\n');
      layout.plant(ws, hostileProgram(dir, ws).program);
      for (const at of layout.hostileAt) {
        for (const command of ['git status', 'git log -n 3']) {
          const r = await judgedByBarrier(dir, command, join(ws, at));
          assert.equal(r.allowed, false, `\`${command}\` in ${at} ran unasked`);
          assert.equal(r.asked.length, 1, `\`${command}\` in ${at}: the person was not asked`);
          const why = r.asked[0]!.riskHints.map((h) => h.detail ?? '').join(' ');
          if (at === '.' && layout.hostileAt.length > 1) assert.match(why, /nested repository at (a\/b|embedded)|modules\/a\/b\/config/, why);
        }
      }
    });
  }
});
