import type { Message } from '../../core/messages.js';
import type { SessionInfo, SessionOrigin } from '../../core/runtime/session-store.js';
import type { ChatItem, SessionSummary } from '../../protocol/messages.js';
import { inertItem } from './inert-items.js';

/** Set by the runtime on an agent core's raw answer, kept only as a record (core/cores/history-policy.ts). */
const RUNTIME_RECORD_FIELD = 'runtime_record';

/**
 * A stored session (its model-visible messages) as chat items, so a restored or reopened
 * conversation renders through the same code as a live one. What the transcript does not keep
 * (a routed callee's own steps, approval outcomes, fallbacks) is not shown for past turns; the
 * routed call still shows the callee's answer as the tool's result.
 */
export function historyItems(agent: string, messages: readonly Message[]): ChatItem[] {
  const path = [agent];
  const items: ChatItem[] = [];
  for (const m of messages) {
    if ((m as Record<string, unknown>)[RUNTIME_RECORD_FIELD] === true) continue;
    switch (m.role) {
      case 'system':
        break;
      case 'user': {
        const item = userItem(m.content);
        // Pictures are named on the message; their bytes stay in the session.
        items.push(m.images?.length && item.kind === 'user' ? { ...item, images: m.images.map((i) => ({ label: i.name ?? i.media_type })) } : item);
        break;
      }
      case 'assistant': {
        const toolCalls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
        items.push({ kind: 'event', event: { type: 'assistant_message', path, content: m.content, toolCalls, model: '' } });
        for (const c of toolCalls) items.push({ kind: 'event', event: { type: 'tool_call', path, ...c } });
        break;
      }
      case 'tool':
        items.push({ kind: 'event', event: { type: 'tool_result', path, id: m.tool_call_id, name: m.name, content: m.content, isError: m.is_error === true, untrusted: false } });
        break;
    }
  }
  // A message that got no answer (the turn failed or was stopped, then the window reloaded):
  // the transcript does not keep the failure, so say so and keep Retry.
  const last = items.at(-1);
  if (last?.kind === 'user') items.push({ kind: 'notice', level: 'error', text: 'This message got no answer (the turn failed or was stopped).', retryText: last.text });
  return items.map(inertItem);
}

/**
 * The chat's history list: the sessions a person started, and heartbeat pulses (shown as such: a
 * person may want to see what a scheduled pulse did). Routed and child sessions belong to the
 * conversation that made them and are left out. Asked of the core by origin, never by title.
 */
export const HISTORY_ORIGINS: readonly SessionOrigin[] = ['user', 'heartbeat'];

export function sessionSummaries(sessions: { list(agent?: string, filter?: { origins?: readonly SessionOrigin[] }): SessionInfo[] }): SessionSummary[] {
  return sessions.list(undefined, { origins: HISTORY_ORIGINS }).map((s) => ({ agent: s.agent, id: s.id, title: s.title, updatedAt: s.updatedAt, messages: s.messages, origin: s.origin }));
}

/** A new session's title: the first line of its first message, shortened (the core titles sessions the same way). */
export { sessionTitle } from '../../core/session-title.js';

const BLOCKS_START = '\n\n<attached-context kind="';
const BLOCK_HEAD = /^<attached-context kind="(file|folder|selection|problems|terminal)" label="([^"\n]*)">$/gm;

/**
 * A stored user message as the chat showed it: the person's text, with the context attached to
 * it (core/context-attachments.ts appends it as blocks) shown as chips, not as raw blocks.
 */
export function userItem(content: string): ChatItem {
  const at = content.indexOf(BLOCKS_START);
  if (at < 0 || !content.endsWith('</attached-context>')) return { kind: 'user', text: content };
  const attachments = [...content.slice(at + 2).matchAll(BLOCK_HEAD)].map((m) => ({ kind: m[1] as 'file', label: m[2]! }));
  return attachments.length ? { kind: 'user', text: content.slice(0, at), attachments } : { kind: 'user', text: content };
}
