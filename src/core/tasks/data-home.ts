import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { within } from '../sandbox/paths.js';
import { UsageError } from '../errors.js';

/**
 * Where background tasks live (issue 28): their records and their worktrees. Never inside the
 * person's checkout (a worktree there would be part of the project) nor inside $PEPE_HOME (which
 * every command's sandbox hides, so a task's own worktree would vanish from under it).
 *
 * - `$PEPE_TASKS_HOME` when set (absolute);
 * - else `$XDG_DATA_HOME/pepe/tasks` when that is set (absolute);
 * - else `~/Library/Application Support/pepe/tasks` on macOS, `%LOCALAPPDATA%\pepe\tasks` on Windows,
 *   `~/.local/share/pepe/tasks` elsewhere.
 */
export function tasksHome(env: NodeJS.ProcessEnv = process.env, home: string = homedir(), platform: NodeJS.Platform = process.platform): string {
  const given = env.PEPE_TASKS_HOME;
  if (given) {
    if (!isAbsolute(given)) throw new UsageError(`PEPE_TASKS_HOME must be an absolute path, not "${given}"`);
    return resolve(given);
  }
  if (env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME)) return join(resolve(env.XDG_DATA_HOME), 'pepe', 'tasks');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'pepe', 'tasks');
  if (platform === 'win32' && env.LOCALAPPDATA && isAbsolute(env.LOCALAPPDATA)) return join(env.LOCALAPPDATA, 'pepe', 'tasks');
  return join(home, '.local', 'share', 'pepe', 'tasks');
}

/** Refuses a tasks folder inside the checkout or inside $PEPE_HOME, or one that holds either. */
export function assertTasksHomeApart(dataHome: string, checkout: string, pepeHome: string): void {
  for (const [what, place] of [['the checkout', checkout], ['PEPE_HOME', pepeHome]] as const) {
    if (within(dataHome, place) || within(place, dataHome)) {
      throw new UsageError(`the tasks folder ${dataHome} must be outside ${what} (${place}); set PEPE_TASKS_HOME to another folder`);
    }
  }
}
