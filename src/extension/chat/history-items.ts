import type { Message } from '../../core/messages.js';
import type { ChatItem } from '../../protocol/messages.js';

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
      case 'user':
        items.push({ kind: 'user', text: m.content });
        break;
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
  return items;
}
