import * as z from './zod.js';
import { ImageParts } from './images.js';

/**
 * Conversation messages: a discriminated union on `role`. Objects are loose so a plugin or a later
 * version may carry extra fields (metadata) without them being dropped on the way through.
 */
export const ToolCall = z.looseObject({
  id: z.string(),
  name: z.string(),
  arguments: z.unknown(),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const SystemMessage = z.looseObject({ role: z.literal('system'), content: z.string() });
/** `images`: pictures the person sent with the text (images.ts checks them; models without eyes refuse them). */
export const UserMessage = z.looseObject({ role: z.literal('user'), content: z.string(), images: z.optional(ImageParts) });
export const AssistantMessage = z.looseObject({
  role: z.literal('assistant'),
  content: z.string(),
  tool_calls: z.optional(z.array(ToolCall)),
});
export const ToolMessage = z.looseObject({
  role: z.literal('tool'),
  tool_call_id: z.string(),
  name: z.string(),
  content: z.string(),
  is_error: z.optional(z.boolean()),
});

export const Message = z.discriminatedUnion('role', [SystemMessage, UserMessage, AssistantMessage, ToolMessage]);
export type Message = z.infer<typeof Message>;
export type AssistantMessage = z.infer<typeof AssistantMessage>;
export type ToolMessage = z.infer<typeof ToolMessage>;
export type UserMessage = z.infer<typeof UserMessage>;
