import * as vscode from 'vscode';
import type { CommandHandler } from './command-context.js';

/**
 * Accept / Reject on a proposed file change (the diff editor's title bar, or the palette). The
 * open diffs belong to DiffApprovals (editing/diff-approval.ts), built with the core; it answers
 * through the host, so these stay light.
 */
const answer = (kind: 'allow_once' | 'deny'): CommandHandler => async (ctx, arg) => {
  const uri = arg instanceof vscode.Uri ? arg : undefined;
  if (!ctx.host.answerEdit(kind, uri)) void vscode.window.showWarningMessage('No proposed change to accept or reject here.');
};

export const editAccept = answer('allow_once');
export const editReject = answer('deny');
