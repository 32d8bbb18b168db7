import * as vscode from 'vscode';
import type { ApprovalRequest, Decision, Prompter } from '../../core/permissions/approval.js';
import { approvalView, type ScopeChoice } from '../../core/permissions/approval-view.js';
import { visible } from '../../core/display.js';
import { withFlow } from '../commands/input-flow.js';
import { Cancelled } from '../commands/ui.js';

/**
 * The permission barrier as a modal dialog (spec 5.2, 9.2), readable at a glance: one line saying
 * who wants to do what, the exact call once, the risks in plain words, and three buttons: Allow
 * once (what Enter picks) · Allow… (the wider scopes in one quick input, each explained, the wide
 * ones confirmed in its next step) · Deny… (an optional reason). Escape or closing the dialog is
 * Deny. One dialog at a time: parallel requests wait their turn instead of stacking modals.
 */
export class ModalPrompter implements Prompter {
  readonly interactive = true;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly log: (line: string) => void = () => undefined,
    /** File changes (write_file, edit_file) are approved on a diff (editing/diff-approval.ts); null from it: the modal asks. */
    private readonly fileChanges?: { handles(request: ApprovalRequest): boolean; ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision | null> },
  ) {}

  ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    const next = this.queue.then(() => this.show(request, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async show(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    if (signal?.aborted) throw new Error('the turn was cancelled before the approval was asked');
    if (this.fileChanges?.handles(request)) {
      const onDiff = await this.fileChanges.ask(request, signal);
      if (onDiff) {
        this.log(`approval ${request.id}: ${onDiff.kind} (on the diff)`);
        return onDiff;
      }
    }
    this.log(`approval ${request.id}: asking about ${visible(request.tool)} for ${request.chain.map(visible).join(' → ')}`);
    const aborted = new Promise<never>((_, reject) => {
      signal?.addEventListener(
        'abort',
        () => {
          // permissions.prompt_timeout_seconds: the core parks the call; the dialog's late answer is ignored.
          const timedOut = (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError';
          if (timedOut) this.log(`approval ${request.id}: ${(signal.reason as Error).message}; not approved, not denied (parked)`);
          reject(new Error(timedOut ? `${(signal.reason as Error).message}: not approved, not denied` : 'the turn was cancelled while the approval was open'));
        },
        { once: true },
      );
    });
    aborted.catch(() => undefined);
    const view = approvalView(request);
    // The dialog again after a scope pick or a confirmation was dismissed: nothing is decided by a dismissal but "deny".
    for (;;) {
      const buttons: vscode.MessageItem[] = [{ title: ALLOW_ONCE }];
      if (view.scopes.length) buttons.push({ title: ALLOW_MORE });
      buttons.push({ title: DENY, isCloseAffordance: true });
      const picked = await Promise.race([vscode.window.showWarningMessage(view.headline, { modal: true, detail: approvalDetail(request) }, ...buttons), aborted]);
      let decision: Decision | undefined;
      if (picked?.title === ALLOW_ONCE) decision = { kind: 'allow_once' };
      else if (picked?.title === ALLOW_MORE) decision = await Promise.race([pickScope(view.scopes), aborted]);
      else if (picked?.title === DENY) decision = await Promise.race([askReason(request), aborted]);
      // Closed some other way (the window went away): deny, asking nothing more.
      else decision = { kind: 'deny' };
      if (!decision) continue;
      this.log(`approval ${request.id}: ${decision.kind}${picked ? '' : ' (dialog closed)'}`);
      return decision;
    }
  }
}

/** The dialog's three buttons (issue 26): the first is what Enter picks, and it is never wider than once. */
export const ALLOW_ONCE = 'Allow once';
export const ALLOW_MORE = 'Allow…';
export const DENY = 'Deny…';

/** The dialog's text under the headline: the call once, the risks in plain words, why it asks. */
export function approvalDetail(request: ApprovalRequest): string {
  const view = approvalView(request);
  const lines = [...(view.via ? [view.via[0]!.toUpperCase() + view.via.slice(1) + '.', ''] : []), view.body];
  if (view.risks.length) lines.push('', view.risks.length === 1 ? `Risk: ${view.risks[0]}` : 'Risks:', ...(view.risks.length === 1 ? [] : view.risks.map((r) => `• ${r}`)));
  if (view.why) lines.push('', view.short ? view.why : `Why you are asked: ${view.why}`);
  return lines.join('\n');
}

/**
 * "Allow…": the scopes wider than once, each explained, the wide ones marked; a wide one is
 * confirmed in a second step of the same input (the keyboard stays in it), whose first choice,
 * what Enter picks, goes back. Undefined (Escape, or back): back to the dialog.
 */
async function pickScope(scopes: ScopeChoice[]): Promise<Decision | undefined> {
  const items = scopes.map((s) => ({ label: s.dangerous ? `$(warning) ${s.label}` : s.label, detail: s.explain, scope: s }));
  try {
    return await withFlow('Allow for longer', undefined, async (flow) => {
      const picked = await flow.pick(items, { placeholder: 'How long, and for which calls?' });
      if (!picked.scope.dangerous) return { kind: picked.scope.kind } as Decision;
      const back = { label: 'No, back to the question', value: false };
      const yes = { label: `$(warning) Yes: ${picked.scope.label}`, detail: `This allows ${picked.scope.explain}.`, value: true };
      const sure = await flow.pick([back, yes], { title: `${picked.scope.label}?`, placeholder: `Confirm: ${picked.scope.label}`, active: back });
      return sure.value ? ({ kind: picked.scope.kind } as Decision) : undefined;
    });
  } catch (e) {
    if (e instanceof Cancelled) return undefined;
    throw e;
  }
}

/** "Deny…" (also Escape): an optional reason for the agent; Enter or Escape here denies without one. */
async function askReason(request: ApprovalRequest): Promise<Decision> {
  const reason = await vscode.window.showInputBox({
    title: `Deny: ${approvalView(request).headline}`,
    prompt: 'Optional: why (the agent reads this). Enter or Escape denies without a reason.',
    ignoreFocusOut: true,
  });
  return reason ? { kind: 'deny', reason } : { kind: 'deny' };
}
