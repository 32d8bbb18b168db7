/**
 * Background tasks (issue 28): making a task's worktree and branch for a 10,000-file repository,
 * through Pepe's disarmed and confined host git (the default), interleaved with the same made
 * disarmed only (PEPE_TASKS_GIT=unconfined) and with a plain `git worktree add` as the control.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execaSync } from 'execa';
import { TaskService } from '../../../src/core/tasks/service.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';

const FILES = 10_000;
const GIT_ENV = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'gc.auto', GIT_CONFIG_VALUE_0: '0', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b.invalid', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b.invalid' };

function makeRepository(dir: string): void {
  for (let d = 0; d < FILES / 100; d++) {
    const folder = join(dir, 'src', `mod${d}`);
    mkdirSync(folder, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(folder, `file${f}.ts`), `export const value${d}_${f} = ${d * 100 + f};\n// ${'x'.repeat(200)}\n`);
  }
  const git = (...args: string[]) => execaSync('git', args, { cwd: dir, env: GIT_ENV });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
}

export async function tasksSuite(ctx: SuiteContext): Promise<Figure[]> {
  const repo = join(ctx.tmp, 'tasks-repo');
  const home = join(ctx.tmp, 'tasks-home');
  const data = join(ctx.tmp, 'tasks-data');
  const plain = join(ctx.tmp, 'tasks-plain');
  for (const d of [repo, home, plain]) mkdirSync(d, { recursive: true });
  makeRepository(repo);
  const service = (env: NodeJS.ProcessEnv, dir: string) => new TaskService({ dataHome: dir, pepeHome: home, env, maxRunning: () => 1000, usage: () => [] });
  const confined = service(process.env, data);
  const disarmed = service({ ...process.env, PEPE_TASKS_GIT: 'unconfined' }, `${data}-unconfined`);
  const rounds = ctx.quick ? 2 : 8;
  const withPepe: number[] = [];
  const unconfined: number[] = [];
  const control: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    await confined.create({ agent: 'bench', text: 'bench', cwd: repo });
    withPepe.push(performance.now() - t);
    t = performance.now();
    await disarmed.create({ agent: 'bench', text: 'bench', cwd: repo });
    unconfined.push(performance.now() - t);
    t = performance.now();
    execaSync('git', ['worktree', 'add', '-q', '-b', `plain-${r}`, join(plain, String(r)), 'HEAD'], { cwd: repo, env: GIT_ENV });
    control.push(performance.now() - t);
  }
  for (const d of [repo, home, data, `${data}-unconfined`, plain]) rmSync(d, { recursive: true, force: true, maxRetries: 5 });
  return [
    figure('tasks', 'tasks.create_worktree', `make a task's worktree and branch for a ${FILES.toLocaleString('en')}-file repository (git disarmed and confined)`, 'ms', withPepe, { below: 3000, targetText: '< 3 s' }),
    figure('tasks', 'tasks.create_worktree_unconfined', 'the same, git disarmed but not confined (PEPE_TASKS_GIT=unconfined)', 'ms', unconfined),
    figure('tasks', 'tasks.create_worktree_plain_git', 'control: a plain git worktree add of the same repository', 'ms', control),
    figure('tasks', 'tasks.create_overhead', "a task's worktree over a plain git worktree add (pairs measured side by side)", '×', withPepe.map((w, i) => w / control[i]!)),
  ];
}
