import type { Usage } from '../protocol/messages.js';
import type { TurnEventOf } from '../protocol/turn-event.js';

// The transcript's sentences for usage, approvals, fallbacks and core events (the words, apart from the nodes).

/** "21 tokens (12 in, 9 out) · $0.0003 · 2 model calls". */
export function usageText(u: Usage): string {
  const n = (x: number) => x.toLocaleString('en-US');
  // No cost known (no prices for the model): nothing said, rather than "no cost recorded".
  const cost = u.costUsd > 0 ? ` · $${u.costUsd < 0.01 ? u.costUsd.toFixed(4) : u.costUsd.toFixed(2)}` : '';
  return `${n(u.inputTokens + u.outputTokens)} tokens (${n(u.inputTokens)} in, ${n(u.outputTokens)} out)${cost} · ${u.calls} model call${u.calls === 1 ? '' : 's'}`;
}

export function changedText(files: number | undefined): string {
  return files === undefined ? 'This turn changed files' : `This turn changed ${files} file${files === 1 ? '' : 's'}`;
}

/** What the person chose, in the words the approval dialog used. */
const USER_DECISIONS: Record<string, string> = {
  allow_once: 'Allowed once',
  allow_task: 'Allowed for the rest of this task',
  allow_session: 'Allowed for this session (these exact arguments)',
  allow_session_risks: 'Allowed for this session (calls with no new risk)',
  allow_session_any: 'Allowed for this session with any arguments',
  always: 'Always allowed (calls with no new risk)',
  always_any: 'Always allowed with any arguments',
  bypass_session: 'Approvals bypassed for the rest of this session',
};

export function decisionText(e: Pick<TurnEventOf<'approval_decided'>, 'allowed' | 'by' | 'decision' | 'reason'>): string {
  const reason = e.reason && !e.allowed ? ` — ${e.reason}` : '';
  switch (e.by) {
    case 'user':
      if (!e.allowed) return `Denied by you${reason}`;
      return `${USER_DECISIONS[e.decision ?? ''] ?? 'Allowed'} by you`;
    case 'free':
      return 'Allowed: nothing in it needs asking';
    case 'auto_approve':
      return 'Allowed: pre-approved for this agent (auto_approve)';
    case 'session_grant':
      return 'Allowed: you allowed it earlier in this session';
    case 'task_grant':
      return 'Allowed: you allowed it for the rest of this task';
    case 'bypass':
      return 'Allowed without asking: you bypassed approvals for this session';
    case 'catastrophic':
      // The core's reason already says what was refused and why.
      return e.reason ?? 'Refused: this is never run by an agent, whatever was approved';
    case 'barrier_error':
      return `Not run: the permission check failed${reason}`;
    case 'no_person':
      return `Not run: nobody was present to ask${reason}`;
    case 'prompt_failed':
      return `Not run: the approval prompt failed${reason}`;
    case 'cancelled':
      return 'Not run: the turn was cancelled while waiting for approval';
    default:
      return `${e.allowed ? 'Allowed' : 'Denied'} (${e.by})${reason}`;
  }
}

/** "memory answered by the built-in: example_memory timed out" (issue 7). */
export function fallbackText(e: TurnEventOf<'slot_fallback'>): string {
  const why = e.reason === 'timeout' ? 'timed out' : e.reason === 'malformed' ? `answered something malformed (${e.detail})` : `failed (${e.detail})`;
  switch (e.outcome) {
    case 'builtin':
      return `${e.slot} answered by the built-in: ${e.occupant} ${why}`;
    case 'refused':
      return `${e.slot} refused the call: ${e.occupant} ${why}`;
    case 'error':
      return `${e.slot} failed: ${e.occupant} ${why}`;
  }
}

export function coreText(e: TurnEventOf<'core'>['event']): string {
  switch (e.type) {
    case 'core_progress':
      return `${e.slotId}: ${e.text}`;
    case 'core_notice':
      return e.slotId ? `${e.slotId}: ${e.text}` : e.text;
    case 'core_slot_failed':
      return `Agent core slot ${e.slotId} (${e.phase}, ${e.policy}) ${e.timedOut ? 'timed out' : 'failed'}: ${e.message}`;
    case 'core_restricted':
      return `Agent core restricted: ${e.reason}`;
    case 'core_sent':
      return `${e.slotId}: ${e.text}`;
    case 'core_return_ignored':
      return `Agent core slot ${e.slotId} (${e.phase}) returned a ${e.valueType}; return values are ignored`;
    case 'core_task':
      return `Child agent ${e.agent} (task ${e.taskId}): ${e.status}${e.error ? ` — ${e.error}` : ''}`;
  }
}
