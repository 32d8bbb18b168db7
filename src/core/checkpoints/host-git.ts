import { devNull, homedir } from 'node:os';
import { execa } from 'execa';
import { confinedCommand, confinementFailed, detectConfinement } from '../sandbox/index.js';
import { findGit, hostGitPolicy } from '../sandbox/host-git.js';
import { execaWithoutInherited } from '../sandbox/inherited-fds.js';

/**
 * git as Pepe runs it on the host over workspace content (spec 8.1): checkpoints, their diffs
 * and restores. Two defences, each meant to hold alone:
 *
 * 1. Disarmed (the primary defence, on every platform): nothing from the workspace, the
 *    environment or the machine's git configuration decides what git runs. System and global
 *    configuration ignored, every setting that names a program overridden on the command line
 *    (which outranks every file), no replace objects, no protocols, no pager or editor, no
    external diff (the diffs pass --no-ext-diff --no-textconv), and never
 *    a nested repository or submodule (the caller leaves those out: git would enter them and obey
 *    their configuration).
 * 2. Confined (bubblewrap or Seatbelt, through the sandbox's own code): no network, the home
 *    folder and Pepe's home hidden, only the shadow store writable, the workspace read-only
 *    except for a restore (sandbox/host-git.ts).
 *
 * Where no confinement backend works, git is not run (fail closed) unless the person set
 * PEPE_CHECKPOINTS=unconfined, which keeps the disarming alone.
 */

/** `-c` settings given to every host git: the command line outranks every configuration file. */
export const DISARM: readonly string[] = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.editor=false',
  'core.askPass=',
  'core.sshCommand=false',
  `core.attributesFile=${devNull}`,
  'credential.helper=',
  'protocol.allow=never',
  'diff.ignoreSubmodules=all',
  'diff.submodule=short',
  'status.submoduleSummary=false',
  'submodule.recurse=false',
  'fetch.recurseSubmodules=false',
  'gpg.program=false',
  'gpg.ssh.program=false',
  'gpg.x509.program=false',
  'commit.gpgSign=false',
  'log.showSignature=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'advice.addEmbeddedRepo=false',
  'safe.bareRepository=explicit',
].flatMap((kv) => ['-c', kv]);

/** The whole environment of a host git: nothing from the person's can point it elsewhere (GIT_DIR, GIT_CONFIG_PARAMETERS…). */
export function hostGitEnv(gitDir: string, workTree: string): Record<string, string> {
  const env: Record<string, string> = {
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_ATTR_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_NO_LAZY_FETCH: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_ALLOW_PROTOCOL: 'none',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'false',
    GIT_AUTHOR_NAME: 'Pepe',
    GIT_AUTHOR_EMAIL: 'checkpoints@pepe.invalid',
    GIT_COMMITTER_NAME: 'Pepe',
    GIT_COMMITTER_EMAIL: 'checkpoints@pepe.invalid',
    HOME: gitDir,
    LC_ALL: 'C',
  };
  for (const k of ['PATH', 'SystemRoot', 'TMPDIR', 'TEMP', 'TMP']) if (process.env[k]) env[k] = process.env[k]!;
  return env;
}

export type HostGitConfinement = 'sandbox' | 'off';

export interface HostGitRun {
  gitDir: string;
  workTree: string;
  confinement: HostGitConfinement;
  /** A restore writes the work tree; everything else only reads it. */
  writeWorkTree: boolean;
  /** Git folders inside the work tree, read-only even for a restore. */
  gitFolders: string[];
  pepeHome: string;
  input?: string;
}

export type HostGitResult = { ok: true; exitCode: number; stdout: string; stderr: string } | { ok: false; why: string };

/** Runs `git <DISARM> <args>` over the work tree, confined unless `confinement` is off. */
export async function runHostGit(args: string[], run: HostGitRun): Promise<HostGitResult> {
  const env = hostGitEnv(run.gitDir, run.workTree);
  const argv = ['git', ...DISARM, ...args];
  let file = 'git';
  let fileArgs = argv.slice(1);
  if (run.confinement === 'sandbox') {
    const status = await detectConfinement();
    if (!status.confined) return { ok: false, why: `checkpoints run git inside the sandbox, which is not available here (${status.reason}); PEPE_CHECKPOINTS=unconfined takes them without it` };
    const git = findGit(env.PATH);
    if (!git) return { ok: false, why: 'the git program was not found (checkpoints need git)' };
    const policy = hostGitPolicy({ workTree: run.workTree, store: run.gitDir, writeWorkTree: run.writeWorkTree, gitFolders: run.gitFolders, home: homedir(), pepeHome: run.pepeHome, gitProgram: git });
    ({ file, args: fileArgs } = confinedCommand(policy, [git, ...argv.slice(1)]));
    // Inside, /tmp is the sandbox's own.
    env.TMPDIR = '/tmp';
  }
  const r = await execa(file, fileArgs, {
    cwd: run.workTree,
    env,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 256 * 1024 * 1024,
    stdio: execaWithoutInherited([run.input !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe']),
    ...(run.input !== undefined ? { input: run.input } : {}),
  });
  if ((r as { code?: string }).code === 'ENOENT') return { ok: false, why: run.confinement === 'sandbox' ? 'the sandbox program was not found' : 'the git program was not found (checkpoints need git)' };
  const stderr = String(r.stderr ?? '');
  // bubblewrap's own failure (it prints "bwrap: …" and never started git): the stored answer may be stale.
  if (run.confinement === 'sandbox' && r.exitCode === 1 && /^bwrap: /m.test(stderr)) {
    confinementFailed();
    return { ok: false, why: `the sandbox could not start git (${stderr.trim().split('\n')[0]})` };
  }
  return { ok: true, exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr };
}
