import { createHash } from 'node:crypto';
import { mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import { devNull, homedir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { PepeError } from '../errors.js';
import { withFileLock } from '../file-lock.js';
import { within } from '../sandbox/policy.js';
import { runHostGit, type HostGitConfinement } from './host-git.js';

/**
 * A git repository that is not the user's (issue 17): its git directory lives in Pepe's home
 * (checkpoints/<workspace hash>), its work tree is the workspace. Every call sets GIT_DIR and
 * GIT_WORK_TREE and takes nothing from the environment or from the user's git configuration, so
 * the user's own .git (its index, refs, hooks, config) is never read or written. Every call runs
 * disarmed and confined (host-git.ts, spec 8.1).
 */

/** PEPE_CHECKPOINTS=unconfined: git disarmed but not confined (where no sandbox works). */
export function checkpointConfinement(env: NodeJS.ProcessEnv): HostGitConfinement {
  return env.PEPE_CHECKPOINTS === 'unconfined' ? 'off' : 'sandbox';
}

export interface ShadowGitOptions {
  /** 'sandbox' (the default): git runs confined; 'off': disarmed only (PEPE_CHECKPOINTS=unconfined). */
  confinement?: HostGitConfinement;
}

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
  /** Git folders in the work tree (its own `.git`, nested repositories'): read-only even while a restore writes. */
  gitFolders: string[] = [];

  private constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly pepeHome: string,
    readonly confinement: HostGitConfinement,
  ) {}

  /** The shadow repository of `workspace` under `checkpointsRoot`, created on first use. */
  static async open(checkpointsRoot: string, workspace: string, pepeHome: string, options: ShadowGitOptions = {}): Promise<ShadowGit> {
    const workTree = await realpath(resolve(workspace)).catch(() => {
      throw new CheckpointError(`the workspace ${workspace} does not exist`);
    });
    if (!(await stat(workTree)).isDirectory()) throw new CheckpointError(`the workspace ${workspace} is not a folder`);
    const confinement = options.confinement ?? checkpointConfinement(process.env);
    // The confined git cannot hide the home folder from a snapshot of a folder that holds it, and
    // such a snapshot would copy every credential there into Pepe's store: declined.
    const home = await realpath(homedir()).catch(() => homedir());
    if (confinement === 'sandbox' && within(home, workTree)) throw new CheckpointError(`checkpoints are not taken for ${workTree}: it holds your home folder`);
    const root = resolve(checkpointsRoot);
    await mkdir(root, { recursive: true });
    const gitDir = join(await realpath(root), workspaceKey(workTree));
    const realHome = await realpath(pepeHome).catch(() => resolve(pepeHome));
    const git = new ShadowGit(gitDir, workTree, realHome, confinement);
    if (!(await stat(join(gitDir, 'HEAD')).then(() => true, () => false))) await git.init(realHome);
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
  async run(args: string[], options: { input?: string; allowFail?: boolean; okExitCodes?: number[]; writeWorkTree?: boolean } = {}): Promise<string> {
    const r = await runHostGit(args, {
      gitDir: this.gitDir,
      workTree: this.workTree,
      confinement: this.confinement,
      writeWorkTree: options.writeWorkTree ?? false,
      gitFolders: this.gitFolders,
      pepeHome: this.pepeHome,
      input: options.input,
    });
    if (!r.ok) throw new CheckpointError(`git ${args[0]} failed: ${r.why}`);
    if (r.exitCode !== 0 && !options.allowFail && !options.okExitCodes?.includes(r.exitCode)) {
      throw new CheckpointError(`git ${args[0]} failed: ${(r.stderr.trim() || `exit code ${r.exitCode}`).split('\n').slice(-3).join(' ')}`);
    }
    return r.stdout;
  }

  /** One writer at a time per workspace (the CLI and the editor may both run turns). */
  async locked<T>(work: () => Promise<T>): Promise<T> {
    return withFileLock(
      `${this.gitDir}.lock`,
      { stale: 60_000, update: 5_000, retries: { retries: 300, factor: 1.2, minTimeout: 10, maxTimeout: 200, randomize: true } },
      () => work(),
    );
  }
}
