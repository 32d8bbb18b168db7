import type { OpenAICompatibleProvider } from '@ai-sdk/openai-compatible';
import type { Message } from '../messages.js';
import type { ToolSpec } from './provider.js';

/**
 * Pepe messages and tools → the AI SDK's provider-level (LanguageModelV3) shapes. The types are
 * taken from a direct dependency rather than importing `@ai-sdk/provider`, which Pepe does not
 * declare.
 */
export type SdkLanguageModel = ReturnType<OpenAICompatibleProvider['chatModel']>;
export type SdkCallOptions = Parameters<SdkLanguageModel['doStream']>[0];
export type SdkPrompt = SdkCallOptions['prompt'];
export type SdkTools = NonNullable<SdkCallOptions['tools']>;
type SdkFunctionTool = Extract<SdkTools[number], { type: 'function' }>;
export type SdkStreamPart = Awaited<ReturnType<SdkLanguageModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

export interface PromptOptions {
  /**
   * Anthropic takes one system prompt up front; the SDK rejects (or needs a beta for) system messages
   * later in the conversation, e.g. rules re-injected after compaction. Hoisting keeps their text.
   */
  hoistSystem: boolean;
}

export function toSdkPrompt(messages: readonly Message[], opts: PromptOptions): SdkPrompt {
  const out: SdkPrompt = [];
  const hoisted: string[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        if (opts.hoistSystem) hoisted.push(m.content);
        else out.push({ role: 'system', content: m.content });
        break;
      case 'user': {
        // Pictures go as file parts: the OpenAI-compatible provider sends them as `image_url` data
        // URLs, Anthropic as base64 `image` blocks. Empty text is left out (Anthropic rejects it).
        const content: Extract<SdkPrompt[number], { role: 'user' }>['content'] = [];
        if (m.content || !m.images?.length) content.push({ type: 'text', text: m.content });
        for (const image of m.images ?? []) content.push({ type: 'file', mediaType: image.media_type, data: image.data });
        out.push({ role: 'user', content });
        break;
      }
      case 'assistant': {
        // Empty text blocks are rejected by Anthropic ("text content blocks must be non-empty").
        const content: Extract<SdkPrompt[number], { role: 'assistant' }>['content'] = [];
        if (m.content) content.push({ type: 'text', text: m.content });
        for (const call of m.tool_calls ?? []) {
          content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: toolInput(call.arguments) });
        }
        if (content.length > 0) out.push({ role: 'assistant', content });
        break;
      }
      case 'tool':
        out.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: m.tool_call_id,
              toolName: m.name,
              output: m.is_error ? { type: 'error-text', value: m.content } : { type: 'text', value: m.content },
            },
          ],
        });
        break;
    }
  }
  if (hoisted.length > 0) out.unshift({ role: 'system', content: hoisted.join('\n\n') });
  return out;
}

/**
 * Both APIs want an object for a past call's input. Unparsable arguments were kept as the raw
 * string; the tool result that follows already told the model they were invalid, so `{}` is enough.
 */
function toolInput(args: unknown): Record<string, unknown> {
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      return {};
    }
  }
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

export function toSdkTools(tools: readonly ToolSpec[]): SdkTools {
  return tools.map((t) => ({
    type: 'function' as const,
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema as SdkFunctionTool['inputSchema'],
  }));
}
