import * as vscode from 'vscode';
import { describeNewProblems, newProblems, type EditorFeedback, type FeedbackWatch, type Problem } from '../../core/tools/editor-feedback.js';

/**
 * The editor's feedback after write_file or edit_file (issue 25): the errors and warnings VS Code
 * reports for the file before the write are the baseline; after it, Pepe waits for the language
 * tooling to report (onDidChangeDiagnostics for that file) until it has been quiet for a moment,
 * never longer than a cap, and hands the new problems to the core as a sentence for the result.
 */
export interface FeedbackTiming {
  /** With no report for the file this long after the write, there is nothing to wait for (no tooling for it). */
  firstReportMs: number;
  /** How long the reports must be quiet after the last change before they count as settled. */
  quietMs: number;
  /** The longest wait after the write, whatever happens. */
  capMs: number;
}
export const DEFAULT_FEEDBACK_TIMING: FeedbackTiming = { firstReportMs: 1500, quietMs: 800, capMs: 5000 };

function problemsOf(uri: vscode.Uri): Problem[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error || d.severity === vscode.DiagnosticSeverity.Warning)
    .map((d) => {
      const code = typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code);
      return {
        severity: d.severity === vscode.DiagnosticSeverity.Error ? ('error' as const) : ('warning' as const),
        message: d.message,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        ...(d.source ? { source: d.source } : {}),
        ...(code ? { code } : {}),
      };
    });
}

export function diagnosticsFeedback(timing: FeedbackTiming = DEFAULT_FEEDBACK_TIMING): EditorFeedback {
  return {
    watch(realPath: string): FeedbackWatch {
      const uri = vscode.Uri.file(realPath);
      const key = uri.toString();
      const before = problemsOf(uri);
      // A report that comes in while the write is applied already counts.
      const watchedAt = Date.now();
      let lastChange = 0;
      let wake: (() => void) | null = null;
      const sub = vscode.languages.onDidChangeDiagnostics((e) => {
        if (!e.uris.some((u) => u.toString() === key)) return;
        lastChange = Date.now();
        wake?.();
      });
      const label = vscode.workspace.asRelativePath(uri, false);
      return {
        async settle(signal?: AbortSignal): Promise<string | null> {
          const settleStart = Date.now();
          const deadline = settleStart + timing.capMs;
          // Wait for a first report after the write, then for the reports to go quiet.
          while (!signal?.aborted) {
            const now = Date.now();
            const quietSince = lastChange >= watchedAt ? lastChange : null;
            if (quietSince !== null && now - quietSince >= timing.quietMs) break;
            if (now >= deadline) break;
            if (quietSince === null && now - settleStart >= timing.firstReportMs) break;
            const until = quietSince !== null ? Math.min(deadline, quietSince + timing.quietMs) : Math.min(deadline, settleStart + timing.firstReportMs);
            await new Promise<void>((resolve) => {
              const t = setTimeout(resolve, Math.max(1, until - now));
              wake = () => {
                clearTimeout(t);
                resolve();
              };
              signal?.addEventListener('abort', () => wake?.(), { once: true });
            });
            wake = null;
          }
          return describeNewProblems(label, newProblems(before, problemsOf(uri)));
        },
        dispose: () => sub.dispose(),
      };
    },
  };
}
