import * as vscode from 'vscode';
import { ToolRefusal, type FileWrite, type FileWriter } from '../../core/tools/tool.js';

/**
 * write_file and edit_file in VS Code (issue 17): the core checks the real path and computes the
 * new content; this applies it as a workspace edit on the file's document and saves it, so an
 * open editor updates in place and Ctrl+Z takes the agent's edit back. A document with unsaved
 * changes is never overwritten: the call is refused and both the buffer and the file stay as
 * they are.
 */
export function documentWriter(log: (line: string) => void = () => undefined): FileWriter {
  return async (change: FileWrite) => {
    const uri = vscode.Uri.file(change.real);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === uri.fsPath);
    if (open?.isDirty) {
      throw new ToolRefusal(`${change.requested} has unsaved changes in the editor: not written, so they are not lost. Ask the person to save or revert the file, then try again`);
    }
    const doc = open ?? (await vscode.workspace.openTextDocument(uri));
    const text = stripBom(change.after).toString('utf8');
    const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, whole, text, { label: `Pepe: ${change.created ? 'create' : 'edit'} ${change.requested}`, needsConfirmation: false });
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code did not apply the edit to ${change.requested}`);
    if (!(await doc.save())) throw new Error(`VS Code could not save ${change.requested}`);
    log(`wrote ${change.real} through its document (${change.after.length} bytes)`);
  };
}

function stripBom(b: Buffer): Buffer {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b;
}
