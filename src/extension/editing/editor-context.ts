import { relative } from 'node:path';
import * as vscode from 'vscode';
import { MAX_ATTACHMENT_CHARS } from '../../core/context-attachment-limits.js';
import type { TurnAttachment } from '../../core/context-attachments.js';
import type { Pepe } from '../../core/pepe.js';

/**
 * What the chat attaches from the editor (issue 17): @file, @folder, @selection, @problems,
 * @terminal. Each returns a TurnAttachment for `RunTurnOptions.attachments`; the turn adds it to the
 * user's message (core/context-attachments.ts) and the transcript records it. Files are read by
 * the core on their real path (only inside the workspace, no FIFO or device).
 */

const MAX_FOLDER_ENTRIES = 500;

const cut = (text: string) => (text.length > MAX_ATTACHMENT_CHARS ? `${text.slice(0, MAX_ATTACHMENT_CHARS - 40)}\n[… cut]` : text);

function label(pepe: Pepe, uri: vscode.Uri): string {
  return uri.scheme === 'file' ? relative(pepe.workspace, uri.fsPath) || uri.fsPath : uri.toString();
}

/** @file: a workspace file's content. */
export function fileContext(pepe: Pepe, uri: vscode.Uri): Promise<TurnAttachment> {
  if (uri.scheme !== 'file') return Promise.reject(new Error(`${uri.toString()} is not a file on disk`));
  // Reading a file goes through the core's file checks (real paths, caps), in the core bundle.
  return pepe.attachFile(uri.fsPath);
}

/** @folder: a folder's entries (one level, folders marked with a slash). */
export async function folderContext(pepe: Pepe, uri: vscode.Uri): Promise<TurnAttachment> {
  const entries = (await vscode.workspace.fs.readDirectory(uri)).sort(([a], [b]) => a.localeCompare(b));
  const lines = entries.slice(0, MAX_FOLDER_ENTRIES).map(([name, type]) => (type & vscode.FileType.Directory ? `${name}/` : name));
  if (entries.length > MAX_FOLDER_ENTRIES) lines.push(`[… ${entries.length - MAX_FOLDER_ENTRIES} more entries]`);
  return { kind: 'folder', label: label(pepe, uri) || '.', content: cut(lines.join('\n') || '(empty)') };
}

/** @selection / "Add Selection to Pepe Chat": the selected text with where it is; null when nothing is selected. */
export function selectionContext(pepe: Pepe, editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): TurnAttachment | null {
  if (!editor || editor.selection.isEmpty) return null;
  const { start, end } = editor.selection;
  // A selection that ends at the start of a line (whole lines, Ctrl+A) does not take that line in.
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  const where = `${label(pepe, editor.document.uri)}:${start.line + 1}-${last + 1}`;
  return { kind: 'selection', label: where, content: cut(editor.document.getText(editor.selection)) };
}

/** @problems: the Problems panel's errors and warnings, one per line. */
export function problemsContext(pepe: Pepe): TurnAttachment {
  const lines: string[] = [];
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    for (const d of diagnostics) {
      if (d.severity > vscode.DiagnosticSeverity.Warning) continue;
      const kind = d.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning';
      lines.push(`${label(pepe, uri)}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${kind}: ${d.message}${d.source ? ` (${d.source})` : ''}`);
    }
  }
  return { kind: 'problems', label: 'Problems', content: cut(lines.join('\n') || 'No errors or warnings.') };
}

/**
 * @terminal / "Add Selection to Pepe Chat" in a terminal: the active terminal's selection, read
 * through the clipboard (the only stable way the API offers); the person's clipboard is put back.
 */
export async function terminalContext(): Promise<TurnAttachment | null> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) return null;
  const saved = await vscode.env.clipboard.readText();
  try {
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const text = await vscode.env.clipboard.readText();
    return text ? { kind: 'terminal', label: `terminal ${terminal.name}`, content: cut(text) } : null;
  } finally {
    await vscode.env.clipboard.writeText(saved);
  }
}
