import * as vscode from 'vscode';
import type { ApprovalRequest, Decision, Prompter } from '../../core/permissions/approval.js';
import { visible, visibleJson } from '../../core/permissions/display.js';

interface Choice extends vscode.MessageItem {
  decide: () => Promise<Decision> | Decision;
}

/**
 * The permission barrier as a modal dialog (spec 5.2, 9.2). The detail shows the agent, the route
 * chain, the tool and its exact arguments (for shell commands the core's summary gives the command
 * line and the working directory). Escape or closing the dialog is Deny. One dialog at a time:
 * parallel requests wait their turn instead of stacking modals.
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
    const deny: Choice = { title: 'Deny', isCloseAffordance: true, decide: () => ({ kind: 'deny' }) };
    const choices: Choice[] = approvalChoices(request).map(([title, kind]) => ({ title, decide: () => ({ kind }) as Decision }));
    choices.push({ title: 'Deny with reason…', decide: () => askReason(request) }, deny);
    this.log(`approval ${request.id}: asking about ${visible(request.tool)} for ${request.chain.map(visible).join(' → ')}`);
    const shown = vscode.window.showWarningMessage(approvalMessage(request), { modal: true, detail: approvalDetail(request) }, ...choices);
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
    const picked = await Promise.race([shown, aborted]);
    const decision = await (picked ?? deny).decide();
    this.log(`approval ${request.id}: ${decision.kind}${picked ? '' : ' (dialog closed)'}`);
    return decision;
  }
}

type AllowKind = Exclude<Decision['kind'], 'deny'>;

/** The allow buttons, in order; a write into Pepe's home offers "once" only. Titles name the risks they cover. */
export function approvalChoices(request: ApprovalRequest): Array<[string, AllowKind]> {
  if (request.onceOnly) return [['Allow once', 'allow_once']];
  const risks = request.risks.length ? request.risks.join(', ') : 'no risks';
  return [
    ['Allow once', 'allow_once'],
    ['Allow for the rest of this task', 'allow_task'],
    ['Allow this exact call for this session', 'allow_session'],
    [`Allow ${visible(request.tool)} with ${risks} for this session`, 'allow_session_risks'],
    ['Allow any arguments this session', 'allow_session_any'],
    [`Always allow ${visible(request.tool)} with ${risks}`, 'always'],
    [`Always allow ${visible(request.tool)} with any arguments`, 'always_any'],
    [`⚠ Bypass: stop asking about ${visible(request.agent)} for this session`, 'bypass_session'],
  ];
}

export function approvalMessage(request: ApprovalRequest): string {
  return `Allow ${visible(request.agent)} to use ${visible(request.tool)}?`;
}

/** Everything a person needs to decide, with the arguments exactly as the model passed them. */
export function approvalDetail(request: ApprovalRequest): string {
  // Everything the model controls is made visible and inert (the same display functions as the terminal).
  const lines = [
    `Agent: ${visible(request.agent)}`,
    `Chain: ${request.chain.map(visible).join(' → ')}`,
    `Tool: ${visible(request.tool)}`,
    `Risks: ${request.risks.length ? request.risks.join(', ') : 'none'}`,
    '',
    visible(request.summary),
  ];
  const args = request.args as Record<string, unknown> | null;
  if ((request.tool === 'bash' || request.tool === 'run_script') && args && typeof args === 'object') {
    lines.push(`Working directory: ${visible(typeof args.cwd === 'string' ? args.cwd : request.cwd)}`);
  }
  lines.push('', `Arguments: ${visibleJson(request.args)}`);
  if (request.whyText) lines.push('', `Why you are asked: ${visible(request.whyText)}`);
  return lines.join('\n');
}

async function askReason(request: ApprovalRequest): Promise<Decision> {
  const reason = await vscode.window.showInputBox({
    title: `Deny ${visible(request.tool)} for ${visible(request.agent)}`,
    prompt: 'Optional: why (the agent reads this)',
    ignoreFocusOut: true,
  });
  return reason ? { kind: 'deny', reason } : { kind: 'deny' };
}
