import type { CoreEvent } from '../cores/host.js';
import type { Message } from '../messages.js';

/**
 * What a turn streams to its surface (spec 4.1). A discriminated union: every surface switches
 * on `type` and the compiler checks each case. `path` is the route chain of the agent that emitted
 * the event (['triage'] for the top-level agent, ['triage', 'billing'] inside a routed call), so a
 * surface can nest a routed run's events under the call that started it.
 */
export type TurnEvent = { path: string[] } & (
  | { type: 'turn_start'; agent: string; sessionId: string; turnId: string; model: string | null }
  | { type: 'assistant_delta'; text: string }
  | { type: 'assistant_message'; content: string; toolCalls: { id: string; name: string; arguments: unknown }[]; model: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'approval_requested'; id: string; tool: string; arguments: unknown; chain: string[]; summary: string; reasons: string[] }
  | { type: 'approval_decided'; id: string; tool: string; allowed: boolean; by: string; decision: string | null; reason: string | null }
  /** Parked calls a person resolved since the last turn (spec 5.4): approved ones ran before this turn. */
  | { type: 'approval_followup'; items: { id: string; tool: string; arguments: unknown; status: 'ran' | 'failed' | 'denied'; content: string }[] }
  | { type: 'tool_result'; id: string; name: string; content: string; isError: boolean; untrusted: boolean }
  | { type: 'slot_fallback'; slot: string; occupant: string; reason: string; detail: string; outcome: 'builtin' | 'refused' | 'error' }
  | { type: 'route_call'; phase: 'start' | 'end'; id: string; from: string; to: string; chain: string[]; result?: string; isError?: boolean }
  | { type: 'compaction'; before: number; after: number; by: string }
  /** From an agent core's pipeline (spec 7): progress, notices, soft slot failures, restricted mode. */
  | { type: 'core'; event: CoreEvent }
  | { type: 'model_fallback'; from: string; to: string | null; error: string }
  | { type: 'error'; message: string; recoverable: boolean }
  | { type: 'turn_end'; agent: string; sessionId: string; turnId: string; content: string; status: TurnStatus; error?: string; switchTo?: string }
);

export type TurnStatus = 'ok' | 'error' | 'cancelled' | 'max_steps' | 'loop_guard';

export type TurnEventOf<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

export type EventSink = (event: TurnEvent) => void;

/** The turn's visible outcome, as `pepe run --json` reports it last. */
export interface TurnResult {
  agent: string;
  sessionId: string;
  turnId: string;
  content: string;
  status: TurnStatus;
  error?: string;
  /** Set when the agent (or the user) asked to hand the conversation to another agent (spec 6.3). */
  switchTo?: string;
  /** True when outside content entered this run (spec 5.3); a routed caller inherits the taint. */
  tookInOutsideContent: boolean;
  messages: Message[];
}
