import * as vscode from 'vscode';
import { classifyFailure } from '../../protocol/model-failure.js';

/**
 * Which agents' last turn failed, and why (issue 26): the Agents tree marks them, with the reason
 * as tooltip, until a turn of theirs succeeds. Kept for this window only.
 */
export class AgentFailures implements vscode.Disposable {
  private readonly reasons = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** A top-level turn of `agent` ended: `error` is its failure's text, or null when it succeeded. */
  turnEnded(agent: string, status: string, error: string | null): void {
    const before = this.reasons.get(agent);
    if (status === 'error' || status === 'budget') this.reasons.set(agent, classifyFailure(error ?? '')?.line ?? (error || 'the last turn failed'));
    else if (status === 'ok') this.reasons.delete(agent);
    if (before !== this.reasons.get(agent)) this.changed.fire();
  }

  reason(agent: string): string | undefined {
    return this.reasons.get(agent);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
