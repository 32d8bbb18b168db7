import * as vscode from 'vscode';

/** The scheme of Pepe's read-only views (Doctor, Test Slot, List Slots). */
export const DOC_SCHEME = 'pepe-doc';

/**
 * Reports shown as read-only documents (a TextDocumentContentProvider): they open like a file,
 * can be searched and copied, but are not unsaved buffers that ask to be saved when closed. One
 * document per name (`Doctor.md`); showing it again replaces its content. The language follows the
 * name's extension (.md, .json).
 */
export class ReadOnlyDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? '';
  }

  /** Opens (or updates and reveals) the read-only document `name` with `content`. */
  async show(name: string, content: string): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: DOC_SCHEME, path: `/${name}` });
    this.contents.set(uri.path, content);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
