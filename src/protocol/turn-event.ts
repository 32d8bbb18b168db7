import * as z from 'zod/mini';

/**
 * The core's TurnEvent (src/core/events.ts) as a zod schema, so the webview can validate
 * what the host forwards. The protocol is a leaf (it imports nothing of the core): the drift check
 * between the two lives in test/unit/protocol/turn-event-drift.test.ts, which imports both.
 */
const path = z.array(z.string());
const phase = z.enum(['bootstrap', 'input', 'output']);
const status = z.enum(['ok', 'error', 'cancelled', 'max_steps', 'loop_guard', 'budget']);
const variant = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) => z.object({ type: z.literal(type), path, ...shape });

/** An agent core's pipeline event (src/core/cores/host.ts CoreEvent). */
export const CoreEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('core_progress'), slotId: z.string(), text: z.string() }),
  z.object({ type: z.literal('core_notice'), slotId: z.nullable(z.string()), text: z.string() }),
  z.object({
    type: z.literal('core_slot_failed'),
    phase,
    slotId: z.string(),
    policy: z.enum(['soft', 'hard']),
    message: z.string(),
    timedOut: z.boolean(),
    file: z.optional(z.string()),
    line: z.optional(z.number()),
  }),
  z.object({ type: z.literal('core_restricted'), reason: z.string() }),
  z.object({ type: z.literal('core_sent'), phase, slotId: z.string(), text: z.string(), visible: z.boolean() }),
  z.object({ type: z.literal('core_return_ignored'), phase, slotId: z.string(), valueType: z.string() }),
  z.object({ type: z.literal('core_task'), taskId: z.string(), agent: z.string(), status: z.string(), sessionId: z.optional(z.string()), error: z.optional(z.string()) }),
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
  variant('taint', { sources: z.array(z.string()) }),
  variant('instructions', { files: z.array(z.object({ name: z.string(), cut: z.boolean() })), leftOut: z.array(z.string()) }),
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
