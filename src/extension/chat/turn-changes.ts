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
const changeTexts = new Map<string, string>();

/** Read-only documents for "Show changes" (never dirty, so closing them asks nothing). */
export function registerChangeDocs(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(CHANGES_SCHEME, { provideTextDocumentContent: (uri) => changeTexts.get(uri.toString()) ?? '' });
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

export async function openWorkspaceFile(pepe: Pepe, path: string): Promise<void> {
  const { real } = await insideWorkspace(pepe.workspace, path);
  await vscode.window.showTextDocument(vscode.Uri.file(real), { preview: true });
}

/** The file's changes since the checkpoint before the turn, as a diff document (read-only: untitled, unsaved). */
export async function showChangeSinceTurn(pepe: Pepe, path: string, sessionId: string, turnId: string): Promise<void> {
  const { rel } = await insideWorkspace(pepe.workspace, path);
  const checkpoint = await checkpointOfTurn(pepe, sessionId, turnId);
  if (!checkpoint) throw new Error('this turn has no checkpoint (it changed no files, or checkpoints are off), so there is nothing to compare with');
  const cp = await pepe.checkpoints();
  const diff = await cp.diff(checkpoint.id, undefined, [rel.split(sep).join('/')]);
  const content = diff || `No changes to ${rel} since before this turn (checkpoint ${checkpoint.id.slice(0, 8)}).\n`;
  const uri = vscode.Uri.from({ scheme: CHANGES_SCHEME, path: `/Changes to ${rel.split(sep).join(" › ")} since ${checkpoint.id.slice(0, 8)}.diff` });
  changeTexts.set(uri.toString(), content);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
}
