import * as vscode from 'vscode';
import type { checkManifest as CheckManifest, ManifestProblem } from './manifest-check.js';

const MANIFEST_NAMES = /(^|[\\/])(slot|pipelines)\.yaml$/;

/**
 * Problems in `slot.yaml` / `pipelines.yaml` as you type (spec 7, 9.2). The checker (yaml + zod)
 * (yaml + zod, in the core bundle) is loaded on the first manifest opened, never at activation.
 */
export class ManifestDiagnostics implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly collection: vscode.DiagnosticCollection, private readonly checker: () => typeof CheckManifest) {
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, 250)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.scheme === 'untitled') this.collection.delete(d.uri);
      }),
    );
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  private schedule(doc: vscode.TextDocument, delayMs: number): void {
    if (!MANIFEST_NAMES.test(doc.uri.path)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.check(doc);
      }, delayMs),
    );
  }

  private check(doc: vscode.TextDocument): void {
    const checkManifest = this.checker();
    const path = doc.uri.scheme === 'file' || doc.uri.scheme === 'vscode-remote' ? doc.uri.fsPath : doc.uri.path;
    this.collection.set(doc.uri, checkManifest(path, doc.getText()).map(toDiagnostic));
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const s of this.subscriptions) s.dispose();
  }
}

export function toDiagnostic(p: ManifestProblem): vscode.Diagnostic {
  const range = new vscode.Range(p.range.startLine, p.range.startCol, p.range.endLine, Math.max(p.range.endCol, p.range.startCol + 1));
  const d = new vscode.Diagnostic(range, p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  d.source = 'pepe';
  return d;
}
