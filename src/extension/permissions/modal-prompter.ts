import * as vscode from 'vscode';
import type { ApprovalRequest, Decision, Prompter } from '../../core/permissions/approval.js';

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

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    const next = this.queue.then(() => this.show(request, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async show(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    if (signal?.aborted) throw new Error('the turn was cancelled before the approval was asked');
    const deny: Choice = { title: 'Deny', isCloseAffordance: true, decide: () => ({ kind: 'deny' }) };
    const choices: Choice[] = [
      { title: 'Allow once', decide: () => ({ kind: 'allow_once' }) },
      { title: 'Allow for this session', decide: () => ({ kind: 'allow_session' }) },
      { title: 'Allow any arguments this session', decide: () => ({ kind: 'allow_session_any' }) },
      { title: `Always allow ${request.tool}`, decide: () => ({ kind: 'always' }) },
      { title: 'Deny with reason…', decide: () => askReason(request) },
      deny,
    ];
    this.log(`approval ${request.id}: asking about ${request.tool} for ${request.chain.join(' → ')}`);
    const shown = vscode.window.showWarningMessage(approvalMessage(request), { modal: true, detail: approvalDetail(request) }, ...choices);
    const aborted = new Promise<never>((_, reject) => {
      signal?.addEventListener('abort', () => reject(new Error('the turn was cancelled while the approval was open')), { once: true });
    });
    const picked = await Promise.race([shown, aborted]);
    const decision = await (picked ?? deny).decide();
    this.log(`approval ${request.id}: ${decision.kind}${picked ? '' : ' (dialog closed)'}`);
    return decision;
  }
}

export function approvalMessage(request: ApprovalRequest): string {
  return `Allow ${request.agent} to use ${request.tool}?`;
}

/** Everything a person needs to decide, with the arguments exactly as the model passed them. */
export function approvalDetail(request: ApprovalRequest): string {
  const lines = [
    `Agent: ${request.agent}`,
    `Chain: ${request.chain.join(' → ')}`,
    `Tool: ${request.tool}`,
    '',
    request.summary,
  ];
  const args = request.args as Record<string, unknown> | null;
  if ((request.tool === 'bash' || request.tool === 'run_script') && args && typeof args === 'object') {
    lines.push(`Working directory: ${typeof args.cwd === 'string' ? args.cwd : request.cwd}`);
  }
  lines.push('', `Arguments: ${JSON.stringify(request.args, null, 2)}`);
  if (request.whyText) lines.push('', `Why you are asked: ${request.whyText}`);
  return lines.join('\n');
}

async function askReason(request: ApprovalRequest): Promise<Decision> {
  const reason = await vscode.window.showInputBox({
    title: `Deny ${request.tool} for ${request.agent}`,
    prompt: 'Optional: why (the agent reads this)',
    ignoreFocusOut: true,
  });
  return reason ? { kind: 'deny', reason } : { kind: 'deny' };
}
