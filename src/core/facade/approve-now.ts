import type { PepeConfig } from '../config/schema.js';
import { UsageError } from '../errors.js';
import type { ApprovedCall, PendingApprovals } from '../permissions/pending.js';
import type { AgentRuntime } from '../runtime/agent-runtime.js';
import type { SessionStore } from '../runtime/session-store.js';
import type { ToolOutcome } from '../tools/tool.js';

/** What approving a parked call needs of the facade. */
export interface ApproveDeps {
  /** Re-reads config.json, so a call is checked against the agents as they are now. */
  reload(): Promise<unknown>;
  config(): PepeConfig;
  pending: Pick<PendingApprovals, 'get' | 'approve' | 'takeApprovedById'>;
  sessions: Pick<SessionStore, 'exists'>;
  runtime: () => Promise<Pick<AgentRuntime, 'runApprovedNow'>>;
}

/**
 * Approves a parked call and runs it now (spec 5.4), in its session and directory, through the
 * same replay path as a follow-up; the session's next turn still tells the model. A call whose
 * agent or session no longer exists is refused and stays pending. `always` also adds the tool,
 * scoped to the risks shown, to the agent's auto_approve.
 */
export async function approveNow(deps: ApproveDeps, id: string, opts: { always?: boolean } = {}): Promise<ToolOutcome & { ran: boolean; call: ApprovedCall }> {
  await deps.reload();
  const parked = await deps.pending.get(id);
  if (parked.status === 'pending') {
    if (!deps.config().agents?.[parked.agent]) throw new UsageError(`cannot approve ${parked.id}: agent ${parked.agent} no longer exists, so there is nobody to run it for; it stays pending (deny it with: pepe approvals deny ${parked.id})`);
    if (!parked.sessionId || !deps.sessions.exists(parked.agent, parked.sessionId)) {
      throw new UsageError(`cannot approve ${parked.id}: its session${parked.sessionId ? ` ${parked.sessionId}` : ''} of ${parked.agent} no longer exists; it stays pending (deny it with: pepe approvals deny ${parked.id})`);
    }
  }
  const approved = await deps.pending.approve(parked.id, opts);
  // Taken under the approval's lock: if a turn of that session took it first, that turn runs it.
  const call = await deps.pending.takeApprovedById(approved.id);
  if (!call) return { content: `approved; ${approved.agent}'s current turn of that session took it and runs it`, isError: false, ran: false, call: approved };
  return { ...(await (await deps.runtime()).runApprovedNow(call)), call };
}
