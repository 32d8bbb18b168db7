import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Workspaces laid out the way a confined command could leave them: every git control file and
 * nested repository shape that makes git start a program by itself (issue 21). Each layout plants
 * into a workspace folder; the hostile program it names records that it ran (a marker file) and
 * tries to carry a secret into the workspace. Shared by the checkpoint attacks, the property test
 * and the barrier's harmless-git checks.
 */

/** git as a project's owner would run it to build a layout: none of this machine's configuration. */
export function plainGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

export interface Hostile {
  /** The program every layout names: appends a line to `marker` and copies `secret` into the workspace. */
  program: string;
  /** Exists once the program ran anywhere. */
  marker: string;
  /** A file standing in for a credential outside the workspace. */
  secret: string;
}

/** A hostile program outside the workspace (a confined command could put one inside just as well). */
export function hostileProgram(dir: string, workspace: string): Hostile {
  const program = join(dir, 'evil.sh');
  const marker = join(dir, 'evil-ran');
  const secret = join(dir, 'id_secret');
  writeFileSync(secret, 'PRIVATE KEY\n');
  writeFileSync(program, `#!/bin/sh\necho "ran: $0 $*" >> '${marker}'\ncp '${secret}' '${workspace}/stolen-key' 2>/dev/null\nexit 1\n`);
  chmodSync(program, 0o755);
  return { program, marker, secret };
}

export interface GitLayout {
  name: string;
  /** Plants the layout into `ws` (which exists); `p` is the hostile program's absolute path. */
  plant(ws: string, p: string): void;
  /** Folders (relative to the workspace) where a git run obeys what was planted. */
  hostileAt: string[];
}

/** Every setting that names a program, in one config text. */
export function programSettings(p: string): string {
  return [
    '[core]',
    `\tfsmonitor = ${p}`,
    `\tpager = ${p}`,
    `\tsshCommand = ${p}`,
    `\taskPass = ${p}`,
    `\teditor = ${p}`,
    '[credential]',
    `\thelper = !${p}`,
    '[gpg]',
    `\tprogram = ${p}`,
    '[log]',
    '\tshowSignature = true',
    '[diff]',
    `\texternal = ${p}`,
    '[filter "evil"]',
    `\tclean = ${p}`,
    `\tsmudge = ${p}`,
    '\trequired = false',
    '[diff "evil"]',
    `\ttextconv = ${p}`,
    `\tcommand = ${p}`,
    '[merge "evil"]',
    `\tdriver = ${p}`,
    '[pager]',
    `\tstatus = ${p}`,
    `\tlog = ${p}`,
    '',
  ].join('\n');
}

const HOOKS = ['post-index-change', 'reference-transaction', 'pre-commit', 'post-checkout', 'post-commit', 'pre-auto-gc', 'fsmonitor-watchman'];

function plantHooks(gitDir: string, p: string): void {
  mkdirSync(join(gitDir, 'hooks'), { recursive: true });
  for (const h of HOOKS) {
    writeFileSync(join(gitDir, 'hooks', h), `#!/bin/sh\nexec '${p}' hook-${h}\n`);
    chmodSync(join(gitDir, 'hooks', h), 0o755);
  }
}

/** A repository with one commit at `dir` (made before anything hostile is planted). */
function repoWithCommit(dir: string): void {
  mkdirSync(dir, { recursive: true });
  plainGit(dir, 'init', '-q');
  writeFileSync(join(dir, 'inner.txt'), 'inner\n');
  writeFileSync(join(dir, '.gitattributes'), '* filter=evil diff=evil merge=evil\n');
  plainGit(dir, 'add', '-A');
  plainGit(dir, 'commit', '-q', '-m', 'inner');
  // A change, so that status and diff have a file to run filters and drivers on.
  appendFileSync(join(dir, 'inner.txt'), 'changed\n');
}

/** The workspace itself as the person's repository, with a commit (layouts that register submodules need one). */
function topRepo(ws: string): void {
  if (existsSync(join(ws, '.git'))) return;
  plainGit(ws, 'init', '-q');
  writeFileSync(join(ws, 'top.txt'), 'top\n');
  plainGit(ws, 'add', 'top.txt');
  plainGit(ws, 'commit', '-q', '-m', 'top');
}

export const GIT_LAYOUTS: GitLayout[] = [
  {
    name: 'a nested repository whose config names programs (fsmonitor, filters, drivers, pager…) and whose hooks run it',
    hostileAt: ['vendor/lib'],
    plant(ws, p) {
      const sub = join(ws, 'vendor', 'lib');
      repoWithCommit(sub);
      appendFileSync(join(sub, '.git', 'config'), programSettings(p));
      plantHooks(join(sub, '.git'), p);
    },
  },
  {
    name: 'a submodule whose name holds a slash (.git/modules/a/b), registered in the top repository',
    hostileAt: ['.', 'a/b'],
    plant(ws, p) {
      topRepo(ws);
      const sub = join(ws, 'a', 'b');
      mkdirSync(dirname(sub), { recursive: true });
      mkdirSync(join(ws, '.git', 'modules', 'a'), { recursive: true });
      plainGit(ws, 'init', '-q', '--separate-git-dir', join(ws, '.git', 'modules', 'a', 'b'), sub);
      writeFileSync(join(sub, '.git'), 'gitdir: ../../.git/modules/a/b\n');
      plainGit(sub, 'config', 'core.worktree', '../../../../a/b');
      writeFileSync(join(sub, 'inner.txt'), 'inner\n');
      plainGit(sub, 'add', '-A');
      plainGit(sub, 'commit', '-q', '-m', 'inner');
      writeFileSync(join(ws, '.gitmodules'), '[submodule "a/b"]\n\tpath = a/b\n\turl = ./a/b\n');
      plainGit(ws, 'add', '.gitmodules', 'a/b');
      plainGit(ws, 'commit', '-q', '-m', 'submodule');
      appendFileSync(join(sub, 'inner.txt'), 'changed\n');
      appendFileSync(join(ws, '.git', 'modules', 'a', 'b', 'config'), programSettings(p));
      plantHooks(join(ws, '.git', 'modules', 'a', 'b'), p);
    },
  },
  {
    name: 'an embedded repository added to the top index as a gitlink, with no .gitmodules',
    hostileAt: ['.', 'embedded'],
    plant(ws, p) {
      topRepo(ws);
      const sub = join(ws, 'embedded');
      repoWithCommit(sub);
      plainGit(ws, 'add', 'embedded');
      plainGit(ws, 'commit', '-q', '-m', 'embedded');
      appendFileSync(join(sub, '.git', 'config'), programSettings(p));
    },
  },
  {
    name: 'a worktree .git file pointing into a repository store (commondir ../..)',
    hostileAt: ['wt'],
    plant(ws, p) {
      const seed = join(ws, '.seed');
      repoWithCommit(seed);
      plainGit(ws, 'clone', '-q', '--bare', seed, 'store.git');
      execFileSync('rm', ['-rf', seed]);
      plainGit(join(ws, 'store.git'), 'worktree', 'add', '-q', join(ws, 'wt'));
      plainGit(join(ws, 'store.git'), 'config', 'core.bare', 'false');
      appendFileSync(join(ws, 'wt', 'inner.txt'), 'changed\n');
      appendFileSync(join(ws, 'store.git', 'config'), programSettings(p));
      plantHooks(join(ws, 'store.git'), p);
    },
  },
  {
    name: 'a .git folder whose commondir names another folder holding the configuration',
    hostileAt: ['c'],
    plant(ws, p) {
      const seed = join(ws, '.seed2');
      repoWithCommit(seed);
      plainGit(ws, 'clone', '-q', '--bare', seed, 'common.git');
      execFileSync('rm', ['-rf', seed]);
      plainGit(join(ws, 'common.git'), 'config', 'core.bare', 'false');
      const gd = join(ws, 'c', '.git');
      mkdirSync(gd, { recursive: true });
      writeFileSync(join(gd, 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(gd, 'commondir'), '../../common.git\n');
      writeFileSync(join(ws, 'c', 'inner.txt'), 'inner\n');
      appendFileSync(join(ws, 'common.git', 'config'), programSettings(p));
      plantHooks(join(ws, 'common.git'), p);
    },
  },
  {
    name: 'a nested repository whose config.worktree names programs (extensions.worktreeConfig)',
    hostileAt: ['cw'],
    plant(ws, p) {
      const sub = join(ws, 'cw');
      repoWithCommit(sub);
      plainGit(sub, 'config', 'extensions.worktreeConfig', 'true');
      writeFileSync(join(sub, '.git', 'config.worktree'), programSettings(p));
    },
  },
  {
    name: 'a nested repository whose config includes (include.path, includeIf) a file the command wrote',
    hostileAt: ['inc', 'incif'],
    plant(ws, p) {
      writeFileSync(join(ws, 'evil.cfg'), programSettings(p));
      const one = join(ws, 'inc');
      repoWithCommit(one);
      appendFileSync(join(one, '.git', 'config'), `[include]\n\tpath = ${join(ws, 'evil.cfg')}\n`);
      const two = join(ws, 'incif');
      repoWithCommit(two);
      appendFileSync(join(two, '.git', 'config'), `[includeIf "gitdir:**"]\n\tpath = ${join(ws, 'evil.cfg')}\n`);
    },
  },
  {
    name: 'the top repository itself names programs, and .gitattributes asks for its filter and drivers everywhere',
    hostileAt: ['.'],
    plant(ws, p) {
      topRepo(ws);
      writeFileSync(join(ws, '.gitattributes'), '* filter=evil diff=evil merge=evil\n');
      appendFileSync(join(ws, 'top.txt'), 'changed\n');
      appendFileSync(join(ws, '.git', 'config'), programSettings(p));
      plantHooks(join(ws, '.git'), p);
    },
  },
  {
    name: 'a bare repository laid out in a plain folder',
    hostileAt: ['bare'],
    plant(ws, p) {
      plainGit(ws, 'init', '-q', '--bare', 'bare');
      appendFileSync(join(ws, 'bare', 'config'), programSettings(p));
      plantHooks(join(ws, 'bare'), p);
    },
  },
  {
    name: 'a repository nested inside an untracked folder, deep down',
    hostileAt: ['new/deep/er/repo'],
    plant(ws, p) {
      const sub = join(ws, 'new', 'deep', 'er', 'repo');
      repoWithCommit(sub);
      appendFileSync(join(sub, '.git', 'config'), programSettings(p));
    },
  },
];

/** Every layout at once in `ws` (the property test's workspace). */
export function plantAll(ws: string, p: string): void {
  for (const layout of GIT_LAYOUTS) layout.plant(ws, p);
}

/** What the marker says ran, or '' when nothing did. */
export function ranLog(h: Hostile): string {
  return existsSync(h.marker) ? readFileSync(h.marker, 'utf8') : '';
}
