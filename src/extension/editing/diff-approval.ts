import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalRequest, Decision } from '../../core/permissions/approval.js';
import { visible } from '../../core/display.js';
import { previewChange, PREVIEWED_TOOLS } from '../../core/tools/change-preview.js';
import { Disposable } from '../disposable.js';
import { describeCallArgs, describeChange } from '../../protocol/change-summary.js';

export const PROPOSED_SCHEME = 'pepe-proposed';

interface Open {
  request: ApprovalRequest;
  left: vscode.Uri;
  right: vscode.Uri;
  decide: (d: Decision) => void;
}

/**
 * A file change approved as a diff (issue 17): write_file and edit_file open VS Code's diff
 * editor, the file as it is on the left and as it would be on the right, with Accept and Reject in
 * the editor's title bar and in a notification. Closing the diff is Reject. Both sides are
 * read-only documents of this provider: what is shown is the core's own preview, the same blocks
 * the tool applies. A change that cannot be previewed (the edit would fail, the file is not text)
 * returns null and the modal asks instead.
 */
export class DiffApprovals extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly open = new Map<string, Open>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly home: () => string, private readonly log: (line: string) => void = () => undefined) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, this));
    this._register(
      // Closing the diff editor is Reject.
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const input = tab.input;
          if (input instanceof vscode.TabInputTextDiff) {
            const hit = [...this.open.values()].find((o) => o.right.toString() === input.modified.toString());
            if (hit) hit.decide({ kind: 'deny', reason: 'the person closed the diff without accepting it' });
          }
        }
      }),
    );
  }

  handles(request: ApprovalRequest): boolean {
    return PREVIEWED_TOOLS.includes(request.tool);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** The person's answer on a diff, or null when this change cannot be shown as one. */
  async ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision | null> {
    const preview = await previewChange(request.tool, request.args, { workspace: request.cwd, paths: { home: this.home() } as never }).catch(() => null);
    if (!preview || preview.kind !== 'change') return null;
    const name = basename(preview.path);
    const left = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${request.id}/current/${name}` });
    const right = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${request.id}/proposed/${name}` });
    this.texts.set(left.toString(), preview.before);
    this.texts.set(right.toString(), preview.after);
    const verb = preview.created ? 'create' : 'change';
    this.log(`approval ${request.id}: diff for ${visible(request.tool)} on ${visible(preview.path)}`);
    try {
      return await new Promise<Decision>((resolve, reject) => {
        const entry: Open = {
          request,
          left,
          right,
          decide: (d) => {
            if (!this.open.has(request.id)) return;
            this.open.delete(request.id);
            resolve(d);
          },
        };
        this.open.set(request.id, entry);
        this.syncContext();
        signal?.addEventListener('abort', () => {
          this.open.delete(request.id);
          reject(new Error('the turn was cancelled while the diff was open'));
        }, { once: true });
        const title = `${visible(preview.path)}: ${visible(request.agent)} wants to ${verb} it (Accept or Reject)`;
        // Beside the chat, not over it: the conversation stays in view while the person decides (issue 26).
        void vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false, viewColumn: vscode.ViewColumn.Beside });
        const buttons = request.onceOnly ? ['Accept', 'Reject'] : ['Accept', 'Accept for This Task', 'Reject'];
        // In words ("coder wants to edit src/prices.py: 1 change, +3 −1"); the diff beside says the rest.
        const message = `${visible(request.agent)} wants to ${visible(changeWords(request.tool, request.args, preview))}. ${capitalised(visible(request.whyText))}`;
        void vscode.window.showInformationMessage(message, ...buttons).then((pick) => {
          if (pick === 'Accept') entry.decide({ kind: 'allow_once' });
          else if (pick === 'Accept for This Task') entry.decide({ kind: 'allow_task' });
          else if (pick === 'Reject') entry.decide({ kind: 'deny' });
          // Dismissed: the title-bar buttons and closing the diff still answer.
        });
      });
    } finally {
      this.open.delete(request.id);
      this.syncContext();
      await closeDiff(right);
      this.texts.delete(left.toString());
      this.texts.delete(right.toString());
    }
  }

  /**
   * Accept/Reject from the title bar (the diff's uri) or the palette (the only open diff). Called
   * by pepe.edit.accept / pepe.edit.reject through the host (commands are registered at activation,
   * never by what building the core starts).
   */
  answer(uri: vscode.Uri | undefined, decision: Decision): boolean {
    const id = uri?.scheme === PROPOSED_SCHEME ? uri.path.split('/')[1] : undefined;
    const target = id ? this.open.get(id) : (activeDiff(this.open) ?? (this.open.size === 1 ? [...this.open.values()][0] : undefined));
    if (!target) return false;
    target.decide(decision);
    return true;
  }

  /** Accept/Reject show in the palette only while a proposed change is open. */
  private syncContext(): void {
    void vscode.commands.executeCommand('setContext', 'pepe.proposedChangeOpen', this.open.size > 0);
  }

  override dispose(): void {
    for (const o of this.open.values()) o.decide({ kind: 'deny', reason: 'the window closed' });
    super.dispose();
  }
}

function activeDiff(open: Map<string, Open>): Open | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (!(input instanceof vscode.TabInputTextDiff)) return undefined;
  return [...open.values()].find((o) => o.right.toString() === input.modified.toString());
}

async function closeDiff(right: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === right.toString());
  if (tabs.length) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
}

function capitalised(text: string): string {
  const t = text.trim();
  if (!t) return '';
  const sentence = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** An edit_file call counts its blocks as its changes, as the chat card does; a whole-file write counts from the preview. */
function changeWords(tool: string, args: unknown, preview: { path: string; before: string; after: string; created: boolean }): string {
  return (tool === 'edit_file' ? describeCallArgs(tool, args) : null) ?? describeChange(preview.path, preview.before, preview.after, preview.created, tool);
}
