import * as z from 'zod/mini';
import type { TurnEvent as CoreTurnEvent } from '../core/runtime/events.js';

/**
 * The core's TurnEvent (src/core/runtime/events.ts) as a zod schema, so the webview can validate
 * what the host forwards. `assertSame` below fails to compile when the two drift apart.
 */
const path = z.array(z.string());
const status = z.enum(['ok', 'error', 'cancelled', 'max_steps', 'loop_guard']);
const variant = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) => z.object({ type: z.literal(type), path, ...shape });

/** An agent core's pipeline event (src/core/cores/host.ts CoreEvent). */
export const CoreEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('core_progress'), slotId: z.string(), text: z.string() }),
  z.object({ type: z.literal('core_notice'), slotId: z.nullable(z.string()), text: z.string() }),
  z.object({ type: z.literal('core_slot_failed'), phase: z.enum(['bootstrap', 'input', 'output']), slotId: z.string(), policy: z.enum(['soft', 'hard']), message: z.string(), timedOut: z.boolean() }),
  z.object({ type: z.literal('core_restricted'), reason: z.string() }),
]);

export const TurnEventSchema = z.discriminatedUnion('type', [
  variant('turn_start', { agent: z.string(), sessionId: z.string(), turnId: z.string(), model: z.nullable(z.string()) }),
  variant('assistant_delta', { text: z.string() }),
  variant('assistant_message', {
    content: z.string(),
    toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.unknown() })),
    model: z.string(),
  }),
  variant('tool_call', { id: z.string(), name: z.string(), arguments: z.unknown() }),
  variant('approval_requested', { id: z.string(), tool: z.string(), arguments: z.unknown(), chain: z.array(z.string()), summary: z.string(), reasons: z.array(z.string()) }),
  variant('approval_decided', { id: z.string(), tool: z.string(), allowed: z.boolean(), by: z.string(), decision: z.nullable(z.string()), reason: z.nullable(z.string()) }),
  variant('approval_followup', {
    items: z.array(z.object({ id: z.string(), tool: z.string(), arguments: z.unknown(), status: z.enum(['ran', 'failed', 'denied']), content: z.string() })),
  }),
  variant('tool_result', { id: z.string(), name: z.string(), content: z.string(), isError: z.boolean(), untrusted: z.boolean() }),
  variant('slot_fallback', { slot: z.string(), occupant: z.string(), reason: z.string(), detail: z.string(), outcome: z.enum(['builtin', 'refused', 'error']) }),
  variant('route_call', {
    phase: z.enum(['start', 'end']),
    id: z.string(),
    from: z.string(),
    to: z.string(),
    chain: z.array(z.string()),
    result: z.optional(z.string()),
    isError: z.optional(z.boolean()),
  }),
  variant('compaction', { before: z.number(), after: z.number(), by: z.string() }),
  variant('model_fallback', { from: z.string(), to: z.nullable(z.string()), error: z.string() }),
  variant('error', { message: z.string(), recoverable: z.boolean() }),
  variant('core', { event: CoreEventSchema }),
  variant('turn_end', {
    agent: z.string(),
    sessionId: z.string(),
    turnId: z.string(),
    content: z.string(),
    status,
    error: z.optional(z.string()),
    switchTo: z.optional(z.string()),
  }),
]);

export type TurnEvent = z.infer<typeof TurnEventSchema>;
export type TurnEventOf<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

// Compile-time: every core event is a protocol event and back (no runtime cost).
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assignable<A, B> = [A] extends [B] ? true : false;
const sameTypes: Mutual<CoreTurnEvent['type'], TurnEvent['type']> = true;
const coreFits: Assignable<CoreTurnEvent, TurnEvent> = true;
void sameTypes;
void coreFits;
