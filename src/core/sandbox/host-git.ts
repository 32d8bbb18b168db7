import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type { ConfinementPolicy } from './policy.js';
import { within } from './policy.js';

/**
 * The confinement of a git that Pepe itself runs on the host over workspace content (spec 8.1):
 * checkpoints and their diffs. This is the second line of defence; the first is that git runs
 * with every program the repository could name switched off (checkpoints/host-git.ts). Here, a
 * code path nobody thought of still cannot reach anything that matters:
 * - no network;
 * - the person's home folder hidden (an empty folder in its place), and Pepe's home too, except:
 * - the shadow repository's own store, the only writable place;
 * - the workspace read-only for a snapshot or a diff; writable for a restore, which must write
 *   the files back, while every git folder in it (the person's `.git`, nested repositories) stays
 *   read-only even then;
 * - git's own install, when it lives in a hidden place (a git under the home folder).
 */
export interface HostGitPolicyInput {
  /** The work tree git reads (the workspace), real path. */
  workTree: string;
  /** The shadow repository's git folder, real path: the only writable place. */
  store: string;
  /** A restore writes the work tree back. */
  writeWorkTree: boolean;
  /** Folders in the work tree that stay read-only even for a restore (its `.git`, nested repositories' git folders). */
  gitFolders: string[];
  home: string | undefined;
  pepeHome: string | undefined;
  /** The git program's real path; its install is kept visible when it is inside a hidden place. */
  gitProgram: string;
}

export function hostGitPolicy(input: HostGitPolicyInput): ConfinementPolicy {
  const hidden: string[] = [];
  for (const p of [input.home, input.pepeHome]) {
    if (!p || !isAbsolute(p) || !existsSync(p)) continue;
    const r = real(p);
    // A work tree inside the home folder is shown again below (deeper wins); one that holds it is refused by the caller.
    if (within(input.workTree, r) || !within(r, input.workTree)) hidden.push(r);
    if (r !== resolve(p)) hidden.push(resolve(p));
  }
  const readOnly: string[] = [];
  const writable = [input.store];
  if (input.writeWorkTree) {
    writable.push(input.workTree);
    readOnly.push(...input.gitFolders.filter((g) => existsSync(g)));
  } else {
    readOnly.push(input.workTree);
  }
  const install = gitInstall(input.gitProgram);
  if (install && hidden.some((h) => within(install, h))) readOnly.push(install);
  return { cwd: input.workTree, writable, readOnly, hidden, network: false, maxProcesses: 64 };
}

/** The git program on PATH, as a real path; null when there is none. */
export function findGit(path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const p = join(dir, 'git');
    if (existsSync(p)) return real(p);
  }
  return null;
}

/** `<prefix>/bin/git` → `<prefix>` (git finds its helpers under it: libexec/git-core, share). */
function gitInstall(program: string): string | null {
  const bin = dirname(program);
  const prefix = dirname(bin);
  return prefix === bin ? null : prefix;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}
