import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import * as z from '../zod.js';
import { lazySchema } from '../lazy-schema.js';
import { withFileLock } from '../file-lock.js';

/**
 * What the person accepted from a workspace (issue 24): per workspace real path, per item
 * (`agent:<name>`, `mcp:<name>`, `hooks:<file>`), the content hash they saw. An item whose
 * content changes has a new hash and waits for acceptance again. Kept in $PEPE_HOME, which
 * nothing from the workspace can write (confined commands and file tools never reach it).
 */

const Accepted = lazySchema(() => z.object({ hash: z.string().check(z.regex(/^[0-9a-f]{64}$/)), file: z.string(), accepted_at: z.string() }));
const TrustFile = lazySchema(() => z.object({ version: z.literal(1), workspaces: z.record(z.string(), z.record(z.string(), Accepted)) }));
type TrustFile = z.infer<typeof TrustFile>;
export type AcceptedItem = z.infer<typeof Accepted>;

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class TrustStore {
  constructor(readonly file: string) {}

  /** What was accepted in one workspace. A damaged file accepts nothing (fail closed). */
  async accepted(workspace: string): Promise<Record<string, AcceptedItem>> {
    return (await this.read()).workspaces[workspace] ?? {};
  }

  async accept(workspace: string, items: readonly { id: string; hash: string; file: string }[]): Promise<void> {
    await this.update((doc) => {
      const ws = (doc.workspaces[workspace] ??= {});
      const now = new Date().toISOString();
      for (const item of items) ws[item.id] = { hash: item.hash, file: item.file, accepted_at: now };
    });
  }

  /** Returns the ids that were accepted and are not any more. */
  async revoke(workspace: string, ids: readonly string[]): Promise<string[]> {
    return this.update((doc) => {
      const ws = doc.workspaces[workspace] ?? {};
      const gone = ids.filter((id) => id in ws);
      for (const id of gone) delete ws[id];
      if (Object.keys(ws).length === 0) delete doc.workspaces[workspace];
      return gone;
    });
  }

  private async read(): Promise<TrustFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, workspaces: {} };
      throw e;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = null;
    }
    const parsed = TrustFile.safeParse(raw);
    if (!parsed.success) throw new Error(`${this.file} is damaged (${parsed.error.issues[0]?.message ?? 'not JSON'}); nothing from a workspace is accepted until it is fixed or removed`);
    return parsed.data;
  }

  private async update<T>(mutate: (doc: TrustFile) => T): Promise<T> {
    await mkdir(dirname(this.file), { recursive: true });
    const options = { stale: 5000, retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true } };
    return withFileLock(`${this.file}.lock`, options, async (lock) => {
      const doc = await this.read();
      const result = mutate(doc);
      // Stalled past `stale` (a suspended laptop): writing now could undo a change made since.
      if (!(await lock.verify())) throw new Error(`${this.file} was being changed elsewhere meanwhile; nothing was written. Try again.`);
      await writeFileAtomic(this.file, JSON.stringify(doc, null, 2) + '\n', { fsync: true, mode: 0o600 });
      return result;
    });
  }
}
