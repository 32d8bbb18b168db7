import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execaSync } from 'execa';
import { TaskService } from '../../../src/core/tasks/service.js';

/** Runs the test's own git (never Pepe's) in `cwd`, with a fixed identity and no global configuration. */
export function git(cwd: string, ...args: string[]): string {
  return execaSync('git', args, { cwd, env: { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t.invalid' } }).stdout;
}

/**
 * A checkout, a PEPE_HOME and a tasks folder, each apart. Made outside /tmp where it can be: the
 * sandbox gives commands a private /tmp, and a test of what a task cannot write must let it see
 * the other places (read-only) rather than not at all.
 */
export class TaskPlace {
  readonly root: string;
  readonly checkout: string;
  readonly pepeHome: string;
  readonly data: string;

  constructor() {
    const base = process.platform === 'linux' ? '/var/tmp' : tmpdir();
    this.root = mkdtempSync(join(base, 'pepe-tasks-test-'));
    this.checkout = join(this.root, 'checkout');
    this.pepeHome = join(this.root, 'home');
    this.data = join(this.root, 'data');
    for (const d of [this.checkout, this.pepeHome]) mkdirSync(d);
    git(this.checkout, 'init', '-q', '-b', 'main');
    writeFileSync(join(this.checkout, 'a.txt'), 'one\n');
    git(this.checkout, 'add', 'a.txt');
    git(this.checkout, 'commit', '-q', '-m', 'first');
  }

  service(maxRunning = 4, env: NodeJS.ProcessEnv = process.env): TaskService {
    return new TaskService({ dataHome: this.data, pepeHome: this.pepeHome, env, maxRunning: () => maxRunning, usage: () => [] });
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
