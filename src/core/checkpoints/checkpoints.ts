import { join } from 'node:path';
import * as z from '../zod.js';
import { CheckpointError, ShadowGit, type ShadowGitOptions } from './shadow-git.js';
import { lazySchema } from '../lazy-schema.js';

export { CheckpointError } from './shadow-git.js';

/**
 * Checkpoints (issue 17): before a turn changes files, the workspace's files (everything git would
 * see: tracked or not, minus what .gitignore leaves out) are committed to a shadow repository in
 * Pepe's home. Each checkpoint is one commit on refs/pepe/checkpoints, its message carrying who
 * and when. "Restore" first checkpoints the present (so a restore can itself be undone), then
 * makes the work tree match the checkpoint: changed and deleted files come back, files created
 * since are removed; ignored files are never touched.
 *
 * A nested repository (a folder git would take for a repository of its own: a `.git` folder or a
 * `.git` file naming one) is left out of the snapshot and named in the checkpoint's `skipped`:
 * git would enter it and obey its configuration (spec 8.1). Its files are neither saved nor
 * touched by a restore.
 */

const REF = 'refs/pepe/checkpoints';
const MARK = 'pepe-checkpoint ';
const MAX_SKIPPED = 200;

export const CheckpointMeta = lazySchema(() =>
  z.object({
    createdAt: z.string(),
    reason: z.enum(['turn', 'restore', 'manual']),
    agent: z.optional(z.string()),
    sessionId: z.optional(z.string()),
    turnId: z.optional(z.string()),
    /** For a "turn" checkpoint: the first line of the message that started the turn (its name in lists). */
    message: z.optional(z.string().check(z.maxLength(200))),
    /** For a "restore" checkpoint: the checkpoint restored. */
    restoring: z.optional(z.string()),
    /** Nested repositories left out of this checkpoint (folders relative to the workspace, at most MAX_SKIPPED). */
    skipped: z.optional(z.array(z.string())),
  }),
);
export type CheckpointMeta = z.infer<typeof CheckpointMeta>;

export interface Checkpoint extends CheckpointMeta {
  /** The commit (full hash); any unique prefix of 7+ characters names it too. */
  id: string;
  tree: string;
}

export interface FileChange {
  status: 'added' | 'modified' | 'deleted' | 'type_changed';
  path: string;
}

export class Checkpoints {
  private constructor(private readonly git: ShadowGit) {}

  /** Checkpoints of `workspace`, kept in `<pepeHome>/checkpoints`. */
  static async open(pepeHome: string, workspace: string, options: ShadowGitOptions = {}): Promise<Checkpoints> {
    return new Checkpoints(await ShadowGit.open(join(pepeHome, 'checkpoints'), workspace, pepeHome, options));
  }

  get workspace(): string {
    return this.git.workTree;
  }

  /** Snapshot the work tree now. */
  async create(meta: Omit<CheckpointMeta, 'createdAt'> & { createdAt?: string }): Promise<Checkpoint> {
    return this.git.locked(() => this.snapshot({ createdAt: new Date().toISOString(), ...meta }));
  }

  private async snapshot(meta: CheckpointMeta): Promise<Checkpoint> {
    const nested = await this.addAll();
    const tree = (await this.git.run(['write-tree'])).trim();
    const parent = await this.head();
    const full: CheckpointMeta = { ...meta, ...(nested.length ? { skipped: nested.slice(0, MAX_SKIPPED) } : {}) };
    const message = MARK + JSON.stringify(CheckpointMeta.parse(full));
    const id = (await this.git.run(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], { input: message })).trim();
    await this.git.run(['update-ref', REF, id, ...(parent ? [parent] : [])]);
    return { id, tree, ...full };
  }

  /**
   * The work tree into the shadow index, nested repositories left out (returned). An unreadable
   * file is left out (exit 1); anything worse fails the checkpoint.
   */
  private async addAll(): Promise<string[]> {
    const nested = await this.nestedRepositories();
    this.git.gitFolders = [join(this.workspace, '.git'), ...nested.map((n) => join(this.workspace, n, '.git'))];
    const pathspecs = { input: '', okExitCodes: [1] };
    if (nested.length) {
      // A gitlink an earlier snapshot recorded there goes: the folder is not part of the checkpoint.
      pathspecs.input = nested.map((n) => `:(top,literal)${n}`).join('\0');
      await this.git.run(['rm', '-r', '--cached', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], pathspecs);
    }
    pathspecs.input = ['.', ...nested.map((n) => `:(exclude,top,literal)${n}`)].join('\0');
    await this.git.run(['add', '--all', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], pathspecs);
    return nested;
  }

  /**
   * Folders git takes for repositories of their own: `ls-files --others` names each as `dir/`
   * instead of listing its files (git does not descend into them; telling one needs only reads).
   */
  private async nestedRepositories(): Promise<string[]> {
    const out = await this.git.run(['ls-files', '-z', '--others', '--exclude-standard']);
    return out
      .split('\0')
      .filter((p) => p.endsWith('/'))
      .map((p) => p.slice(0, -1))
      .sort();
  }

  private async head(): Promise<string | null> {
    const out = await this.git.run(['rev-parse', '--verify', '--quiet', `${REF}^{commit}`], { allowFail: true });
    return out.trim() || null;
  }

  /** Newest first. */
  async list(limit = 100): Promise<Checkpoint[]> {
    if (!(await this.head())) return [];
    const out = await this.git.run(['log', `-n${Math.max(1, limit)}`, '--format=%H%x00%T%x00%B%x1e', REF]);
    const list: Checkpoint[] = [];
    for (const record of out.split('\x1e')) {
      const [id, tree, body] = record.replace(/^\n/, '').split('\x00');
      if (!id || !tree || !body?.startsWith(MARK)) continue;
      const meta = CheckpointMeta.safeParse(safeJson(body.slice(MARK.length).trim()));
      if (meta.success) list.push({ id, tree, ...meta.data });
    }
    return list;
  }

  /** The checkpoint a (prefix of an) id names; a clear error for none or several. */
  async get(ref: string): Promise<Checkpoint> {
    if (!/^[0-9a-f]{4,40}$/i.test(ref)) throw new CheckpointError(`"${ref}" is not a checkpoint id (see pepe checkpoints list)`, 2);
    const all = await this.list(10_000);
    const hits = all.filter((c) => c.id.startsWith(ref.toLowerCase()));
    if (hits.length === 0) throw new CheckpointError(`no checkpoint ${ref} for ${this.workspace} (see pepe checkpoints list)`, 2);
    if (hits.length > 1) throw new CheckpointError(`${ref} names ${hits.length} checkpoints; give more of the id`, 2);
    return hits[0]!;
  }

  /**
   * The text of the file at `path` (relative to the workspace, `/`-separated) in checkpoint `ref`,
   * or null when the checkpoint has no such file. Read as a blob: no textconv, no filters.
   */
  async fileAt(ref: string, path: string): Promise<string | null> {
    const { id } = await this.get(ref);
    const object = `${id}:${path.replace(/^\/+/, '')}`;
    const type = (await this.git.run(['cat-file', '-t', object], { allowFail: true })).trim();
    if (type !== 'blob') return null;
    return this.git.run(['cat-file', 'blob', object]);
  }

  /** What changed from checkpoint `ref` to the work tree now (or to checkpoint `to`). */
  async changes(ref: string, to?: string): Promise<FileChange[]> {
    const { from, target } = await this.range(ref, to);
    const out = await this.git.run(['diff', '--name-status', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', from, ...target]);
    const parts = out.split('\0').filter(Boolean);
    const changes: FileChange[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = ({ A: 'added', M: 'modified', D: 'deleted', T: 'type_changed' } as const)[parts[i]![0] as 'A'] ?? 'modified';
      changes.push({ status, path: parts[i + 1]! });
    }
    return changes;
  }

  /** The unified diff from checkpoint `ref` to the work tree now (or to checkpoint `to`). */
  async diff(ref: string, to?: string, paths: string[] = []): Promise<string> {
    const { from, target } = await this.range(ref, to);
    return this.git.run(['diff', '--no-color', '--no-renames', '--no-ext-diff', '--no-textconv', '--ignore-submodules=all', from, ...target, '--', ...paths]);
  }

  private async range(ref: string, to?: string): Promise<{ from: string; target: string[] }> {
    const from = (await this.get(ref)).id;
    if (to) return { from, target: [(await this.get(to)).id] };
    // The work tree as it is now, through the shadow index (never the user's).
    await this.git.locked(() => this.addAll());
    return { from, target: ['--cached'] };
  }

  /**
   * Brings the work tree back to checkpoint `ref`. The present is checkpointed first (returned as
   * `saved`, so this restore can be undone by restoring that one).
   */
  async restore(ref: string): Promise<{ restored: Checkpoint; saved: Checkpoint; changes: FileChange[] }> {
    const restored = await this.get(ref);
    return this.git.locked(async () => {
      const saved = await this.snapshot({ createdAt: new Date().toISOString(), reason: 'restore', restoring: restored.id });
      const out = await this.git.run(['diff', '--name-status', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', saved.tree, restored.tree]);
      // The index now holds `saved`; read-tree -u moves index and work tree to the checkpoint,
      // deleting what was created since and writing back what was changed or deleted.
      await this.git.run(['read-tree', '-u', '--reset', restored.tree], { writeWorkTree: true });
      const parts = out.split('\0').filter(Boolean);
      const changes: FileChange[] = [];
      for (let i = 0; i + 1 < parts.length; i += 2) {
        // Seen from the present: what the restore does to each file.
        const status = ({ A: 'added', M: 'modified', D: 'deleted', T: 'type_changed' } as const)[parts[i]![0] as 'A'] ?? 'modified';
        changes.push({ status, path: parts[i + 1]! });
      }
      return { restored, saved, changes };
    });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
