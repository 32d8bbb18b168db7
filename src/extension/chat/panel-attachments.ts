import { isAbsolute, join, relative } from 'node:path';
import * as vscode from 'vscode';
import type { TurnAttachment } from '../../core/context-attachments.js';
import type { Pepe } from '../../core/pepe.js';
import type { AttachmentKind } from '../../protocol/messages.js';
import { fileContext, folderContext, problemsContext, selectionContext, terminalContext } from '../editing/editor-context.js';
import { insideWorkspace } from './workspace-path.js';

/**
 * Gathering what the chat attaches (issue 17): @ completions, drops, quick picks. Whatever the
 * webview sends (a dropped URI, an @ completion) is only a request: files are read by the core on
 * their real path and only inside the workspace; a folder is listed only when its real path is.
 */

/** The text editor the person used last: a focused webview has no active text editor. */
let lastEditor: vscode.TextEditor | undefined;
export function trackLastEditor(): vscode.Disposable {
  lastEditor = vscode.window.activeTextEditor;
  return vscode.window.onDidChangeActiveTextEditor((e) => {
    if (e) lastEditor = e;
  });
}

function editorWithSelection(): vscode.TextEditor | undefined {
  const candidates = [vscode.window.activeTextEditor, lastEditor, ...vscode.window.visibleTextEditors];
  return candidates.find((e) => e && !e.selection.isEmpty && e.document.uri.scheme !== 'output');
}

/** A URI string from the webview (a drop, an @ completion) as a file URI, or an absolute or workspace-relative path. */
export function parseDropped(pepe: Pepe, raw: string): vscode.Uri {
  const text = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const uri = vscode.Uri.parse(text, true);
    // A remote window's files arrive as vscode-remote URIs; their path is the file's path there.
    if (uri.scheme === 'file' || uri.scheme === 'vscode-remote') return vscode.Uri.file(uri.path);
    throw new Error(`${uri.scheme}: is not a file on disk; only workspace files and folders can be attached`);
  }
  return vscode.Uri.file(isAbsolute(text) ? text : join(pepe.workspace, text));
}

/** Gathers one kind of context; files and folders from `uris`, or a quick pick of the workspace's. */
export async function gather(pepe: Pepe, kind: AttachmentKind, uris: readonly string[] = []): Promise<TurnAttachment[]> {
  switch (kind) {
    case 'selection': {
      const a = selectionContext(pepe, editorWithSelection());
      if (!a) throw new Error('nothing is selected in an editor: select some text first');
      return [a];
    }
    case 'terminal': {
      const a = await terminalContext();
      if (!a) throw new Error('no terminal text is selected: select some output in a terminal first');
      return [a];
    }
    case 'problems':
      return [problemsContext(pepe)];
    case 'file':
    case 'folder': {
      const targets = uris.length ? uris.map((u) => parseDropped(pepe, u)) : await pickTargets(pepe, kind);
      const out: TurnAttachment[] = [];
      for (const uri of targets) {
        const stat = await vscode.workspace.fs.stat(uri);
        out.push(await (stat.type & vscode.FileType.Directory ? folderOf(pepe, uri) : fileContext(pepe, uri)));
      }
      return out;
    }
  }
}

async function folderOf(pepe: Pepe, uri: vscode.Uri): Promise<TurnAttachment> {
  const { real } = await insideWorkspace(pepe.workspace, uri.fsPath).catch(() => {
    throw new Error(`${uri.fsPath} is outside the workspace; only workspace folders can be attached`);
  });
  return folderContext(pepe, vscode.Uri.file(real));
}

async function pickTargets(pepe: Pepe, kind: 'file' | 'folder'): Promise<vscode.Uri[]> {
  const base = vscode.Uri.file(pepe.workspace);
  if (kind === 'folder') {
    const picked = await vscode.window.showOpenDialog({ defaultUri: base, canSelectFiles: false, canSelectFolders: true, canSelectMany: true, openLabel: 'Attach', title: 'Attach folders to the message' });
    return picked ?? [];
  }
  const files = await vscode.workspace.findFiles(new vscode.RelativePattern(base, '**/*'), undefined, 5000);
  const items = files
    .map((uri) => ({ label: relative(pepe.workspace, uri.fsPath), uri }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const picked = await vscode.window.showQuickPick(items, { title: 'Attach a file to the message', placeHolder: 'a workspace file (type to filter)' });
  return picked ? [picked.uri] : [];
}
