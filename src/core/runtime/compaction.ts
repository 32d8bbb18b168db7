import { IMAGE_TOKEN_ESTIMATE, describeImage } from '../images.js';
import type { Message } from '../messages.js';
import type { PepeConfig } from '../config/schema.js';
import { collect, type ModelProvider } from '../models/provider.js';
import type { ModelRef } from '../slots/contracts.js';

/** A rough token estimate (4 characters a token), enough to decide when to condense. */
export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const m of messages) chars += messageChars(m);
  return Math.ceil(chars / 4);
}

/**
 * What one message counts for, remembered per message: a turn asks about the whole conversation
 * before every model call, and serialising every earlier tool call each time made a long
 * session's steps cost more the longer it grew (issue 27). The answer is kept with the content
 * and the tool-call list it was computed from: a message given new content, a new list or more
 * calls or images since is counted afresh.
 */
const counted = new WeakMap<Message, { content: string; calls: unknown; callCount: number; images: number; chars: number }>();

function messageChars(m: Message): number {
  const calls = m.role === 'assistant' ? m.tool_calls : undefined;
  const callCount = calls?.length ?? 0;
  const images = m.role === 'user' ? m.images?.length ?? 0 : 0;
  const known = counted.get(m);
  if (known && known.content === m.content && known.calls === calls && known.callCount === callCount && known.images === images) return known.chars;
  const chars = m.content.length + 8 + images * IMAGE_TOKEN_ESTIMATE * 4 + (calls ? JSON.stringify(calls).length : 0);
  counted.set(m, { content: m.content, calls, callCount, images, chars });
  return chars;
}

export const COMPACTION_THRESHOLD = 0.6;
export const TAIL_SHARE = 0.3;
/** The summary's budget: a tenth of the window. */
export const SUMMARY_SHARE = 0.1;
export const DEFAULT_CONTEXT_WINDOW = 128_000;

export function needsCompaction(messages: readonly Message[], contextWindow: number): boolean {
  return estimateTokens(messages) > contextWindow * COMPACTION_THRESHOLD;
}

/**
 * Where the verbatim tail starts: about `TAIL_SHARE` of the window from the end, moved earlier so
 * it never starts on a tool result (a tool call and its result stay together, spec 4.5).
 */
export function tailStart(rest: readonly Message[], budgetTokens: number): number {
  let start = rest.length;
  let used = 0;
  while (start > 0) {
    const cost = estimateTokens([rest[start - 1]!]);
    if (used + cost > budgetTokens && start < rest.length) break;
    used += cost;
    start--;
  }
  while (start > 0 && rest[start]?.role === 'tool') start--;
  return start;
}

const SUMMARY_PROMPT =
  'Summarise the conversation above for your own later use: the user\'s goals, decisions made, facts learned, ' +
  'tool results that matter, and open questions. Be concise and factual. Do not address the user.';

export const SUMMARY_TAG = 'conversation-summary';

/**
 * The built-in compaction occupant (spec 4.5): keep the system messages (the system prompt and an
 * agent core's bootstrap context are re-injected verbatim, never summarised) and a verbatim tail
 * of about 30 % of the window; summarise the middle with the model into one message. It never
 * fails: if summarising fails, the original messages come back.
 */
export async function compactBuiltin(messages: Message[], model: ModelProvider, contextWindow: number, signal?: AbortSignal): Promise<Message[]> {
  const system = messages.filter((m) => m.role === 'system');
  const rest = messages.filter((m) => m.role !== 'system');
  const start = tailStart(rest, Math.floor(contextWindow * TAIL_SHARE));
  if (start <= 0) return messages;
  const middle = rest.slice(0, start);
  const tail = rest.slice(start);
  try {
    const transcript = middle.map(render).join('\n');
    const response = await collect(
      model.stream(
        {
          messages: [
            { role: 'system', content: 'You condense conversations. Answer with the summary only.' },
            { role: 'user', content: `<conversation>\n${transcript}\n</conversation>\n\n${SUMMARY_PROMPT}` },
          ],
          tools: [],
          maxOutputTokens: Math.floor(contextWindow * SUMMARY_SHARE),
        },
        signal,
      ),
    );
    let summary = response.text.trim();
    if (!summary) return messages;
    // A summary longer than its budget defeats the purpose: cut it (the budget is in tokens, ~4 chars each).
    const maxChars = Math.floor(contextWindow * SUMMARY_SHARE) * 4;
    if (summary.length > maxChars) summary = `${summary.slice(0, maxChars)} […]`;
    const marker: Message = {
      role: 'user',
      content: `<${SUMMARY_TAG} messages="${middle.length}">\nEarlier turns, condensed to fit the context window:\n${summary}\n</${SUMMARY_TAG}>`,
    };
    return [...system, marker, ...tail];
  } catch {
    return messages;
  }
}

function render(m: Message): string {
  switch (m.role) {
    case 'assistant':
      return `assistant: ${m.content}${m.tool_calls?.length ? ` [called ${m.tool_calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(', ')}]` : ''}`;
    case 'tool':
      return `tool ${m.name}: ${m.content.length > 2000 ? `${m.content.slice(0, 2000)} […]` : m.content}`;
    case 'user':
      return `user: ${m.content}${m.images?.length ? ` [sent ${m.images.length} image(s): ${m.images.map(describeImage).join('; ')}]` : ''}`;
    default:
      return `${m.role}: ${m.content}`;
  }
}

export function contextWindowOf(model: ModelRef, config: PepeConfig): number {
  return model.context_window ?? config.models?.[model.id]?.context_window ?? DEFAULT_CONTEXT_WINDOW;
}
