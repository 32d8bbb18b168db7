import type { TurnEvent } from '../events.js';
import type { LogRecord } from '../log.js';
import type { BarrierEvent } from '../permissions/approval.js';

/** A barrier event as the log records it (what was asked, what was decided, by whom). */
export function logRecord(e: BarrierEvent): LogRecord {
  if (e.type === 'approval_requested') {
    const r = e.request;
    return { kind: 'info', message: 'approval_requested', id: r.id, agent: r.agent, chain: r.chain, tool: r.tool, summary: r.summary };
  }
  return { kind: 'info', message: 'approval_decided', id: e.requestId, agent: e.agent, chain: e.chain, tool: e.tool, allowed: e.allowed, by: e.by, decision: e.decision?.kind ?? null, pendingId: e.pendingId ?? null };
}

/** A barrier event as the turn streams it to its surface. */
export function toTurnEvent(e: BarrierEvent): TurnEvent {
  if (e.type === 'approval_requested') {
    const r = e.request;
    return { type: 'approval_requested', path: r.chain, id: r.id, tool: r.tool, arguments: r.args, chain: r.chain, summary: r.summary, reasons: [r.whyText] };
  }
  return {
    type: 'approval_decided',
    path: e.chain,
    id: e.requestId ?? e.pendingId ?? '',
    tool: e.tool,
    allowed: e.allowed,
    by: e.by,
    decision: e.decision?.kind ?? null,
    reason: e.reason ?? null,
  };
}
