import type { ApprovedCall, PendingApprovals } from '../permissions/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolOutcome } from '../tools/tool.js';

/**
 * Spec 5.4: a call parked because nobody could be asked, and later approved (`pepe approvals
 * approve`) or denied, comes back in the agent's next turn of that session: approved calls run
 * now and their results, like denials, are put in front of the user's new message.
 */
export async function followUpMessage(
  pending: PendingApprovals,
  tools: ToolRegistry,
  agent: string,
  sessionId: string,
  execute: (call: ApprovedCall) => Promise<ToolOutcome & { ran: boolean }>,
): Promise<{ text: string; items: FollowUpItem[] } | null> {
  const resolved = await pending.takeResolved(agent, { sessionId });
  if (!resolved.length) return null;
  const parts: string[] = [];
  const items: FollowUpItem[] = [];
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
    const result = await execute(call);
    const how = result.ran ? `it ran${result.isError ? ' and failed' : ''}` : 'it was not run';
    parts.push(`The user approved the parked call ${call.id} (${what}); ${how}:\n${result.content}`);
    items.push({ id: call.id, tool: call.tool, arguments: call.args, status: result.isError ? 'failed' : 'ran', content: result.content });
  }
  return { text: `<resolved-approvals>\n${parts.join('\n\n')}\n</resolved-approvals>`, items };
}

export interface FollowUpItem {
  id: string;
  tool: string;
  arguments: unknown;
  status: 'ran' | 'failed' | 'denied';
  content: string;
}
