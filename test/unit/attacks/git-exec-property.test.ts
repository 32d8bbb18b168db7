import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { detectConfinement } from '../../../src/core/sandbox/index.js';
import { makeTempDir, removeDir } from '../permissions/helpers.js';
import { judgedByBarrier } from './git-attack-helpers.js';
import { GIT_LAYOUTS, hostileProgram, plainGit, plantAll, ranLog, type Hostile } from './git-layouts.js';
import { recordAttacks } from './record.js';

/**
 * Property (issue 21): over a workspace seeded with every git control file and nested repository
 * layout in git-layouts.ts, Pepe's own git (a checkpoint, its diffs, a restore) and a harmless
 * git the barrier lets run unasked start no program other than git itself. Observed with
 * `strace -f -e trace=execve` around a stand-in Pepe process (git-exec-host.ts): every program
 * that started is listed, and each must be git, one of git's own helpers, the sandbox, the shell
 * the sandbox starts commands with, or the test's own node and esbuild.
 *
 * Failed against bfd1589: the checkpoint started the planted program (core.fsmonitor of the
 * nested repositories, through `git add --all`); `git status` at the top of a repository whose
 * submodule (.git/modules/a/b) or embedded gitlink names core.fsmonitor was classified harmless
 * and ran unasked.
 */

const HOST = join(import.meta.dirname, 'git-exec-host.ts');
const GIT_EXEC_PATH = realpathSync(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim());

function which(name: string): string | null {
  for (const d of (process.env.PATH ?? '').split(':')) if (d && existsSync(join(d, name))) return realpathSync(join(d, name));
  return null;
}

/** Runs the stand-in under strace; returns its JSON answer and every program that started (path and start of its argv). */
async function traced(dir: string, request: object): Promise<{ answer: unknown; programs: string[]; execs: { path: string; argv: string }[] }> {
  const log = join(process.env.KEEP_STRACE ?? dir, `strace-${Date.now()}.log`);
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile('strace', ['-f', '-qq', '-s', '64', '-e', 'trace=execve', '-e', 'signal=none', '-o', log, process.execPath, '--import', 'tsx', HOST, JSON.stringify(request)], { maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (err, out, errText) =>
      err ? reject(new Error(`${err.message}\n${errText}`)) : resolve(out),
    ),
  );
  const execs: { path: string; argv: string }[] = [];
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const m = /execve\("((?:[^"\\]|\\.)*)", \[(.*)\], .*\) = 0$/.exec(line);
    if (m) execs.push({ path: m[1]!, argv: m[2]! });
  }
  return { answer: JSON.parse(stdout.trim().split('\n').pop()!), programs: [...new Set(execs.map((e) => e.path))], execs };
}

/**
 * What may start: git and its helpers, bubblewrap, the test's own node and esbuild, and the
 * sandbox's own shells (its process-limit prefix, its cgroup holder and that holder's `cat`).
 * git runs a configured program through `sh -c`, so a shell running anything else is not allowed.
 */
function unexpected(execs: { path: string; argv: string }[]): string[] {
  const allowed = new Set([which('git'), which('bwrap'), realpathSync(process.execPath), process.execPath].filter(Boolean) as string[]);
  const shells = new Set(['/bin/sh', '/usr/bin/sh', which('sh')].filter(Boolean) as string[]);
  return execs
    .filter(({ path, argv }) => {
      const real = existsSync(path) ? realpathSync(path) : path;
      if (allowed.has(path) || allowed.has(real)) return false;
      if (real.startsWith(GIT_EXEC_PATH + '/')) return false;
      if (basename(real) === 'esbuild' && real.includes('node_modules')) return false;
      if ((shells.has(path) || shells.has(real)) && /^"[^"]*sh", "-c", "(ulimit -u |echo \$\$ )/.test(argv)) return false;
      if (basename(real) === 'cat' && argv === '"cat"') return false;
      return true;
    })
    .map(({ path, argv }) => `${path} [${argv}]`);
}

describe('property: over every git layout, only git starts', function () {
  recordAttacks('host git programs', 'a checkpoint, a diff and a harmless git start no program but git');
  this.timeout(600_000);
  let dir: string;
  let ws: string;
  let hostile: Hostile;
  before(async function () {
    if (!which('strace') || !(await detectConfinement()).confined) this.skip();
    await loadShellGrammar();
    dir = makeTempDir('pepe-gitexec-');
    ws = join(dir, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'notes.txt'), 'notes\n');
    hostile = hostileProgram(dir, ws);
    plantAll(ws, hostile.program);
  });
  after(() => dir && removeDir(dir));

  for (const confinement of ['sandbox', 'off'] as const) {
    it(`a checkpoint, its diffs and a restore (host git confinement ${confinement})`, async () => {
      const { answer, programs, execs } = await traced(dir, { op: 'checkpoints', workspace: ws, pepeHome: join(dir, `pepe-${confinement}`), confinement });
      assert.deepEqual(unexpected(execs), [], `programs other than git started: ${JSON.stringify(programs)}`);
      assert.ok(programs.some((p) => basename(p) === 'git'), 'git never ran: the trace saw nothing');
      assert.equal(ranLog(hostile), '');
      const skipped = (answer as string[][])[0]!;
      for (const nested of ['a/b', 'c', 'cw', 'embedded', 'inc', 'incif', 'new/deep/er/repo', 'vendor/lib', 'wt']) assert.ok(skipped.includes(nested), `${nested} not skipped: ${JSON.stringify(skipped)}`);
    });
  }

  it('harmless git: in every repository that obeys what was planted, `git status`, `git log` and `git diff` are asked', async () => {
    const home = join(dir, 'barrier-home');
    mkdirSync(home, { recursive: true });
    for (const layout of GIT_LAYOUTS) {
      for (const at of layout.hostileAt) {
        for (const command of ['git status', 'git log -n 3', 'git diff']) {
          const r = await judgedByBarrier(home, command, join(ws, at));
          assert.equal(r.allowed, false, `${layout.name}: \`${command}\` in ${at} ran unasked`);
          assert.equal(r.asked.length, 1, `${layout.name}: \`${command}\` in ${at}: the person was not asked`);
        }
      }
    }
  });

  it('harmless git: what the barrier lets run unasked, run in the real sandbox, starts only git', async () => {
    // A clean repository holding every layout git does not enter from it (untracked nested
    // repositories, worktree files, commondir folders, bare layouts): `git status` there is harmless.
    const clean = join(dir, 'clean');
    mkdirSync(clean);
    plainGit(clean, 'init', '-q');
    writeFileSync(join(clean, 'top.txt'), 'top\n');
    plainGit(clean, 'add', 'top.txt');
    plainGit(clean, 'commit', '-q', '-m', 'top');
    const planted = GIT_LAYOUTS.filter((l) => !l.hostileAt.includes('.'));
    for (const layout of planted) layout.plant(clean, hostile.program);
    const runs: { cwd: string; argv: string[] }[] = [];
    for (const at of ['.', 'new', 'new/deep', 'vendor']) {
      for (const command of ['git status', 'git status --ignored -uall', 'git log -n 3', 'git diff']) {
        const cwd = join(clean, at);
        const r = await judgedByBarrier(join(dir, 'barrier-home'), command, cwd);
        if (r.allowed) runs.push({ cwd, argv: command.split(' ') });
        // `git status` is the harmless git this is about; the others may be asked for reasons of their own.
        else assert.notEqual(command, 'git status', `\`git status\` in ${at} of a clean repository was asked: ${JSON.stringify(r.asked.map((a) => a.riskHints))}`);
      }
    }
    const home = join(dir, 'person-home');
    mkdirSync(home, { recursive: true });
    const { programs, execs } = await traced(dir, { op: 'sandbox', workspace: clean, pepeHome: join(dir, 'pepe-sb'), home, runs });
    assert.ok(programs.some((p) => basename(p) === 'git'), 'git never ran: the trace saw nothing');
    assert.deepEqual(unexpected(execs), [], `programs other than git started: ${JSON.stringify(programs)}`);
    assert.equal(ranLog(hostile), '');
  });
});
