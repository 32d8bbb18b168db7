import { isAbsolute, relative, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { TrustStore } from './trust-store.js';
import type { Interop, WorkspaceItem } from './workspace-power.js';

/**
 * Accepting and revoking a workspace's items (`pepe trust list | accept | revoke`, and the
 * editor's views). What is accepted is the content seen now: its hash is recorded, so a later
 * change waits for acceptance again.
 */
export class WorkspaceTrust {
  constructor(private readonly deps: { trust: TrustStore; full: () => Interop | null; reload: () => Promise<unknown> }) {}

  /** The workspace's items with their status; empty where workspace files are left out. */
  list(): { workspace: string | null; items: WorkspaceItem[] } {
    const i = this.deps.full();
    return { workspace: i?.workspace ?? null, items: i?.items ?? [] };
  }

  /** Accepts the items a PATH or NAME names (or all of them); returns those newly accepted. */
  async accept(target: string | { all: true }): Promise<WorkspaceItem[]> {
    const { workspace, items } = this.need();
    const chosen = typeof target === 'string' ? this.pick(items, target, workspace) : items;
    const todo = chosen.filter((it) => it.status !== 'accepted');
    if (todo.length) await this.deps.trust.accept(workspace, todo.map((it) => ({ id: it.id, hash: it.hash, file: it.file })));
    await this.deps.reload();
    return todo;
  }

  async revoke(target: string): Promise<string[]> {
    const { workspace, items } = this.need();
    const chosen = this.pick(items, target, workspace);
    const gone = await this.deps.trust.revoke(workspace, chosen.map((it) => it.id));
    await this.deps.reload();
    return gone;
  }

  private need(): { workspace: string; items: WorkspaceItem[] } {
    const { workspace, items } = this.list();
    if (!workspace) throw new UsageError('workspace files are left out here (an untrusted workspace or --untrusted), so there is nothing to accept');
    return { workspace, items };
  }

  private pick(items: WorkspaceItem[], target: string, workspace: string): WorkspaceItem[] {
    const rel = isAbsolute(target) ? relative(workspace, target) : relative(workspace, resolve(workspace, target));
    const found = items.filter((it) => it.id === target || it.name === target || it.file === target || it.file === rel);
    if (found.length === 0) {
      const known = items.map((it) => `${it.name} (${it.file})`).join(', ');
      throw new UsageError(`nothing in this workspace is called "${target}"${known ? `; its items: ${known}` : '; it has no agent files, MCP entries or hooks'}`);
    }
    return found;
  }
}
