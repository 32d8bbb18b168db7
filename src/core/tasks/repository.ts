import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** The person's checkout a task starts from: its top folder, its own git folder and the shared one. */
export interface Checkout {
  top: string;
  /** Its own git folder (for a linked worktree: `<common>/worktrees/<name>`): where HEAD is. */
  gitDir: string;
  /** The shared git folder (objects, refs, worktrees). */
  commonDir: string;
}

/**
 * Finds the checkout holding `cwd` from the files alone (no git runs over a folder not yet
 * known): the nearest `.git` folder, or `.git` file and the folder it names.
 */
export function findCheckout(cwd: string): Checkout {
  for (let dir = real(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const kind = kindOf(dotGit);
    if (kind === 'dir') return { top: dir, gitDir: dotGit, commonDir: dotGit };
    if (kind === 'file') {
      const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      if (!m) throw new UsageError(`${dotGit} is not a git file`);
      const gitDir = real(resolve(dir, m[1]!.trim()));
      const common = existsSync(join(gitDir, 'commondir')) ? real(resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim())) : gitDir;
      if (!existsSync(join(gitDir, 'HEAD'))) throw new UsageError(`${dotGit} names ${gitDir}, which is not a git folder`);
      return { top: dir, gitDir, commonDir: common };
    }
    if (dirname(dir) === dir) throw new UsageError(`${cwd} is not inside a git checkout; a task starts from one`);
  }
}

function kindOf(p: string): 'dir' | 'file' | null {
  try {
    const s = lstatSync(p);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

export function real(p: string): string {
  const abs = isAbsolute(p) ? p : resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}
