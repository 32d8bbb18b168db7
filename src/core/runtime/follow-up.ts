import type { ApprovedCall, PendingApprovals } from '../permissions/pending.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolOutcome } from '../tools/tool.js';

/** Session state scope under which a call approved and run between turns waits to be told (one per call). */
export const RAN_SCOPE_PREFIX = 'approval_ran:';

/** A resolved call as the next turn tells it: one paragraph for the model, one item for the surface. */
export interface ToldCall {
  part: string;
  item: FollowUpItem;
}

/** What the model is told about an approved call that ran (now, or when it was approved). */
export function toldRan(call: Pick<ApprovedCall, 'id' | 'tool' | 'args'>, result: ToolOutcome & { ran: boolean }): ToldCall {
  const what = `${call.tool} ${JSON.stringify(call.args)}`;
  const how = result.ran ? `it ran${result.isError ? ' and failed' : ''}` : 'it was not run';
  return {
    part: `The user approved the parked call ${call.id} (${what}); ${how}:\n${result.content}`,
    item: { id: call.id, tool: call.tool, arguments: call.args, status: result.ran && !result.isError ? 'ran' : 'failed', content: result.content },
  };
}

/**
 * Spec 5.4: a call parked because nobody could be asked, and later approved (`pepe approvals
 * approve`) or denied, comes back in the agent's next turn of that session: approved calls run
 * now and their results, like denials, are put in front of the user's new message. `carried`:
 * calls that already ran when they were approved, told here all the same.
 */
export async function followUpMessage(
  pending: PendingApprovals,
  tools: ToolRegistry,
  agent: string,
  sessionId: string,
  execute: (call: ApprovedCall) => Promise<ToolOutcome & { ran: boolean }>,
  carried: readonly ToldCall[] = [],
): Promise<{ text: string; items: FollowUpItem[] } | null> {
  const resolved = await pending.takeResolved(agent, { sessionId });
  if (!resolved.length && !carried.length) return null;
  const parts: string[] = carried.map((c) => c.part);
  const items: FollowUpItem[] = carried.map((c) => c.item);
  for (const call of resolved) {
    const what = `${call.tool} ${JSON.stringify(call.args)}`;
    if (call.status === 'denied') {
      parts.push(`The user denied the parked call ${call.id} (${what})${call.reason ? `: ${call.reason}` : ''}.`);
      items.push({ id: call.id, tool: call.tool, arguments: call.args, status: 'denied', content: call.reason ?? '' });
      continue;
    }
    if (!tools.get(call.tool)) {
      parts.push(`The parked call ${call.id} (${what}) was approved, but the tool no longer exists.`);
      items.push({ id: call.id, tool: call.tool, arguments: call.args, status: 'failed', content: 'the tool no longer exists' });
      continue;
    }
    const told = toldRan(call, await execute(call));
    parts.push(told.part);
    items.push(told.item);
  }
  return { text: `<resolved-approvals>\n${parts.join('\n\n')}\n</resolved-approvals>`, items };
}

/** Calls approved and run between turns that this session's next turn has not told yet. */
export function carriedFrom(state: Record<string, unknown>): { scope: string; told: ToldCall }[] {
  return Object.entries(state).flatMap(([scope, value]) => {
    if (!scope.startsWith(RAN_SCOPE_PREFIX) || !value || typeof value !== 'object') return [];
    const v = value as Partial<ToldCall>;
    return typeof v.part === 'string' && v.item && typeof v.item === 'object' ? [{ scope, told: v as ToldCall }] : [];
  });
}

export interface FollowUpItem {
  id: string;
  tool: string;
  arguments: unknown;
  status: 'ran' | 'failed' | 'denied';
  content: string;
}
