import { sep } from 'node:path';
import * as vscode from 'vscode';
import type { Checkpoint } from '../../core/checkpoints/checkpoints.js';
import type { Pepe } from '../../core/pepe.js';
import { insideWorkspace } from './workspace-path.js';

/**
 * What a chat card links to (issue 17): the file a write_file/edit_file call changed, the change
 * it made, and the checkpoint taken before its turn. The paths come from the model (a tool's
 * arguments): they are resolved against the workspace and followed to their real place, and only
 * a file inside the workspace is opened.
 */

const CHANGES_SCHEME = 'pepe-changes';

/**
 * Read-only documents for "Show changes" (never dirty, so closing them asks nothing). The URI
 * names the checkpoint and the file (`?cp=<id>&file=<path>`) and the text is read from the
 * checkpoint when VS Code asks: no state kept beside the provider, so any registration of the
 * scheme answers the same.
 */
export function registerChangeDocs(getPepe: () => Promise<Pepe>): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(CHANGES_SCHEME, {
    provideTextDocumentContent: async (uri) => {
      const q = new URLSearchParams(uri.query);
      const cp = q.get('cp') ?? '';
      const file = q.get('file') ?? '';
      // The URI is ours, but a document link could name the scheme: only a checkpoint id and a relative path.
      if (!/^[0-9a-f]{40,64}$/.test(cp) || !file || file.startsWith('/') || file.split('/').includes('..')) return '';
      return (await (await (await getPepe()).checkpoints()).fileAt(cp, file)) ?? '';
    },
  });
}

/** The checkpoint taken before this turn's first change, or null (no change, no git, checkpoints off). */
export async function checkpointOfTurn(pepe: Pepe, sessionId: string, turnId: string): Promise<Checkpoint | null> {
  try {
    const cp = await pepe.checkpoints();
    return (await cp.list(50)).find((c) => c.reason === 'turn' && c.sessionId === sessionId && c.turnId === turnId) ?? null;
  } catch {
    return null;
  }
}

/**
 * The turn's checkpoint and how many files differ from it now, at the turn's end: only a turn
 * that changed files gets the "This turn changed files" line (a command that may have written,
 * but did not, takes a checkpoint too).
 */
export async function changesOfTurn(pepe: Pepe, sessionId: string, turnId: string): Promise<{ checkpoint: Checkpoint; files: number } | null> {
  const checkpoint = await checkpointOfTurn(pepe, sessionId, turnId);
  if (!checkpoint) return null;
  try {
    const files = (await (await pepe.checkpoints()).changes(checkpoint.id)).length;
    return files > 0 ? { checkpoint, files } : null;
  } catch {
    return null;
  }
}

export async function openWorkspaceFile(pepe: Pepe, path: string): Promise<void> {
  const { real } = await insideWorkspace(pepe.workspace, path);
  await vscode.window.showTextDocument(vscode.Uri.file(real), { preview: true });
}

/**
 * The file's changes since the checkpoint before the turn, in VS Code's diff editor beside the
 * chat (issue 26): the file as it was then (read-only) ↔ the file as it is now.
 */
export async function showChangeSinceTurn(pepe: Pepe, path: string, sessionId: string, turnId: string): Promise<void> {
  const { rel, real } = await insideWorkspace(pepe.workspace, path);
  const checkpoint = await checkpointOfTurn(pepe, sessionId, turnId);
  if (!checkpoint) throw new Error('this turn has no checkpoint (it changed no files, or checkpoints are off), so there is nothing to compare with');
  const relPosix = rel.split(sep).join('/');
  const id = checkpoint.id;
  const uri = vscode.Uri.from({ scheme: CHANGES_SCHEME, path: `/${id.slice(0, 12)}/${relPosix}`, query: new URLSearchParams({ cp: id, file: relPosix }).toString() });
  const name = relPosix.split('/').at(-1) ?? relPosix;
  await vscode.commands.executeCommand('vscode.diff', uri, vscode.Uri.file(real), `${name}: before this turn ↔ now`, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}
