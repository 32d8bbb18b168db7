import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { real, type Checkout } from './repository.js';
import { taskGit, type TaskGitRun } from './task-git.js';

/** Who the commits of a task's work and its merge are by, and where that was found. */
export interface CommitIdentity {
  name: string;
  email: string;
  /** Where the name was found: `environment` (GIT_AUTHOR_NAME), `repository` (the checkout's git configuration), `global` (the person's), `fallback` (none set). */
  from: 'environment' | 'repository' | 'global' | 'fallback';
}

/** Used when neither the person's environment nor their git configuration names anybody. */
export const FALLBACK_IDENTITY: CommitIdentity = { name: 'Pepe task', email: 'tasks@pepe.invalid', from: 'fallback' };

/**
 * The person's own git identity (issue 28), read the way git would pick it for a commit in their
 * checkout: GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL in their environment, else `user.name`/`user.email`
 * of the checkout's repository configuration, else of their global configuration; each half from
 * the first place that has it. Never from the task's worktree, whose content the task's agent
 * wrote: the repository configuration is read through the checkout's own git folder (as recorded,
 * not as any `.git` file says), and the global one as a single file without its includes. Both
 * reads are the disarmed, confined git of tasks (task-git.ts). A value that is not a plain line is
 * ignored. When nothing is set: FALLBACK_IDENTITY, which callers say.
 */
export async function personIdentity(checkout: Checkout, place: { pepeHome: string; env?: NodeJS.ProcessEnv }): Promise<CommitIdentity> {
  const env = place.env ?? process.env;
  const found: Partial<Record<'name' | 'email', { value: string; from: CommitIdentity['from'] }>> = {};
  const take = (key: 'name' | 'email', value: string | undefined, from: CommitIdentity['from']) => {
    if (!found[key] && value !== undefined && plain(value)) found[key] = { value: value.trim(), from };
  };
  take('name', env.GIT_AUTHOR_NAME, 'environment');
  take('email', env.GIT_AUTHOR_EMAIL, 'environment');
  const run: TaskGitRun = { gitDir: checkout.gitDir, workTree: checkout.top, writable: [], readable: [checkout.top, checkout.gitDir, checkout.commonDir], pepeHome: place.pepeHome, env };
  const fill = (values: Map<string, string>, from: CommitIdentity['from']) => {
    take('name', values.get('user.name'), from);
    take('email', values.get('user.email'), from);
  };
  if (!found.name || !found.email) fill(await userValues(run, []), 'repository');
  for (const given of globalConfigFiles(env)) {
    if (found.name && found.email) break;
    // Its real path: the sandbox shows that one (a linked ~/.gitconfig would be gone inside).
    const file = real(given);
    fill(await userValues({ ...run, readable: [...run.readable, file] }, ['--file', file]), 'global');
  }
  if (!found.name || !found.email) return FALLBACK_IDENTITY;
  return { name: found.name.value, email: found.email.value, from: found.name.from };
}

/** How a commit's author is shown: `Name <email>`. */
export function identityLine(identity: Pick<CommitIdentity, 'name' | 'email'>): string {
  return `${identity.name} <${identity.email}>`;
}

/** `user.name` and `user.email` as set in one place (the last of each wins, as in git); none when git could not read it. */
async function userValues(run: TaskGitRun, where: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const r = await taskGit(['config', ...where, '--no-includes', '-z', '--get-regexp', '^user\\.(name|email)$'], run).catch(() => null);
  if (!r || r.exitCode !== 0) return out;
  for (const entry of r.stdout.split('\0')) {
    const nl = entry.indexOf('\n');
    if (nl > 0) out.set(entry.slice(0, nl).toLowerCase(), entry.slice(nl + 1));
  }
  return out;
}

/**
 * The person's global git configuration files, most important first: `GIT_CONFIG_GLOBAL` when
 * set (alone, as git does), else `~/.gitconfig`, then `$XDG_CONFIG_HOME/git/config` (or
 * `~/.config/git/config`). Only existing, absolute ones.
 */
export function globalConfigFiles(env: NodeJS.ProcessEnv, home: string = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir()): string[] {
  if (env.GIT_CONFIG_GLOBAL !== undefined) return isAbsolute(env.GIT_CONFIG_GLOBAL) && existsSync(env.GIT_CONFIG_GLOBAL) ? [env.GIT_CONFIG_GLOBAL] : [];
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? join(env.XDG_CONFIG_HOME, 'git', 'config') : join(home, '.config', 'git', 'config');
  return [join(home, '.gitconfig'), xdg].filter((f) => existsSync(f));
}

/** One line of printable text, of a sane length, without what would end git's `Name <email>` nor invisible format characters (a right-to-left override, a zero-width space) that make it read otherwise. */
function plain(value: string): boolean {
  const v = value.trim();
  return v.length > 0 && v.length <= 200 && !/[\p{Cc}\p{Cf}<>]/u.test(v);
}
