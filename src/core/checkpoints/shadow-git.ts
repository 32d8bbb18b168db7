import { createHash } from 'node:crypto';
import { mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import { devNull } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { execa } from 'execa';
import lockfile from 'proper-lockfile';
import { PepeError } from '../errors.js';

/**
 * A git repository that is not the user's (issue 17): its git directory lives in Pepe's home
 * (checkpoints/<workspace hash>), its work tree is the workspace. Every call sets GIT_DIR and
 * GIT_WORK_TREE and takes nothing from the environment or from the user's git configuration, so
 * the user's own .git (its index, refs, hooks, config) is never read or written.
 */

/** What went wrong with a checkpoint, said for a person (a wrong id is a usage mistake: exit code 2). */
export class CheckpointError extends PepeError {
  constructor(message: string, exitCode: 1 | 2 = 1) {
    super(message, exitCode);
  }
}

/** Checkpoints of one workspace live under checkpoints/<this>. */
export function workspaceKey(realWorkspace: string): string {
  return createHash('sha256').update(realWorkspace).digest('hex').slice(0, 16);
}

/** Only these reach git: nothing from the user's environment can point it elsewhere (GIT_DIR, GIT_INDEX_FILE…). */
function gitEnv(gitDir: string, workTree: string): Record<string, string> {
  const env: Record<string, string> = {
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
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

/**
 * Settings of the shadow repository: no line-end or filter conversion (a restore gives back the
 * exact bytes), no hooks, no background maintenance, the untracked cache for fast warm snapshots.
 */
const CONFIG: Array<[string, string]> = [
  ['core.autocrlf', 'false'],
  ['core.safecrlf', 'false'],
  ['core.symlinks', 'true'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'true'],
  ['core.preloadIndex', 'true'],
  ['core.quotePath', 'false'],
  ['core.hooksPath', devNull],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['commit.gpgSign', 'false'],
  ['index.version', '4'],
  ['advice.addEmbeddedRepo', 'false'],
];
/** Highest-precedence attributes: a workspace's .gitattributes cannot ask for conversions or filters. */
const ATTRIBUTES = '* -text -filter -ident -working-tree-encoding -eol\n';

export class ShadowGit {
  private constructor(
    readonly gitDir: string,
    readonly workTree: string,
  ) {}

  /** The shadow repository of `workspace` under `checkpointsRoot`, created on first use. */
  static async open(checkpointsRoot: string, workspace: string, pepeHome: string): Promise<ShadowGit> {
    const workTree = await realpath(resolve(workspace)).catch(() => {
      throw new CheckpointError(`the workspace ${workspace} does not exist`);
    });
    if (!(await stat(workTree)).isDirectory()) throw new CheckpointError(`the workspace ${workspace} is not a folder`);
    const root = resolve(checkpointsRoot);
    await mkdir(root, { recursive: true });
    const gitDir = join(await realpath(root), workspaceKey(workTree));
    const git = new ShadowGit(gitDir, workTree);
    if (!(await stat(join(gitDir, 'HEAD')).then(() => true, () => false))) await git.init(await realpath(pepeHome).catch(() => resolve(pepeHome)));
    return git;
  }

  private async init(pepeHome: string): Promise<void> {
    await mkdir(this.gitDir, { recursive: true });
    await this.run(['init', '--quiet']);
    for (const [key, value] of CONFIG) await this.run(['config', key, value]);
    await mkdir(join(this.gitDir, 'info'), { recursive: true });
    await writeFile(join(this.gitDir, 'info', 'attributes'), ATTRIBUTES);
    // Pepe's own folder (and so this repository) is never part of a snapshot, when it is inside the workspace.
    const excluded = [this.gitDir, pepeHome]
      .filter((p) => p.startsWith(this.workTree + sep))
      .map((p) => `/${relative(this.workTree, p).split(sep).join('/')}/`);
    await writeFile(join(this.gitDir, 'info', 'exclude'), excluded.join('\n') + '\n');
    await writeFile(join(this.gitDir, 'pepe-workspace'), this.workTree + '\n');
  }

  /** Runs git in the shadow repository; a non-zero exit is a CheckpointError with git's message. */
  async run(args: string[], options: { input?: string; allowFail?: boolean; okExitCodes?: number[] } = {}): Promise<string> {
    const r = await execa('git', args, {
      cwd: this.workTree,
      env: gitEnv(this.gitDir, this.workTree),
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
      maxBuffer: 256 * 1024 * 1024,
      ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
    });
    if (r.failed && !options.allowFail && !(r.exitCode !== undefined && options.okExitCodes?.includes(r.exitCode))) {
      const why = (r as { code?: string }).code === 'ENOENT' ? 'the git program was not found (checkpoints need git)' : String(r.stderr || r.shortMessage).trim();
      throw new CheckpointError(`git ${args[0]} failed: ${why}`);
    }
    return String(r.stdout);
  }

  /** One writer at a time per workspace (the CLI and the editor may both run turns). */
  async locked<T>(work: () => Promise<T>): Promise<T> {
    const release = await lockfile.lock(this.gitDir, {
      realpath: false,
      lockfilePath: `${this.gitDir}.lock`,
      stale: 60_000,
      update: 5_000,
      retries: { retries: 300, factor: 1.2, minTimeout: 10, maxTimeout: 200, randomize: true },
    });
    try {
      return await work();
    } finally {
      await release().catch(() => undefined);
    }
  }
}
