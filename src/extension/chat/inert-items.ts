import { displayCommand, visible, visibleLine } from '../../core/display.js';
import type { TurnEvent } from '../../core/events.js';
import type { ChatItem } from '../../protocol/messages.js';

/*
 * What a model controls (tool arguments, commands, tool output, approval summaries and reasons)
 * is made visible and inert on the host before it is posted to the chat webview: a carriage
 * return, an ANSI/OSC escape, a bidi override or a zero-width character is shown as an escape
 * (`\e`, `\u{202e}`), so a card cannot show a command as another. A bash command with hidden
 * characters is shown `$'…'`-quoted, the way the approval modal shows it. The webview cannot use
 * the core's display helpers itself (it never imports the core at run time), so it happens here.
 * The model's prose (the answer's markdown) is left as written: it renders as text, and escaping
 * it would break emoji sequences and right-to-left scripts.
 */

export function inertItem(item: ChatItem): ChatItem {
  return item.kind === 'event' ? { kind: 'event', event: inertEvent(item.event) } : item;
}

export function inertEvent(e: TurnEvent): TurnEvent {
  switch (e.type) {
    case 'assistant_message':
      return { ...e, toolCalls: e.toolCalls.map((c) => ({ ...c, name: visibleLine(c.name), arguments: inertArgs(c.name, c.arguments) })) };
    case 'tool_call':
      return { ...e, name: visibleLine(e.name), arguments: inertArgs(e.name, e.arguments) };
    case 'approval_requested':
      return { ...e, tool: visibleLine(e.tool), arguments: inertArgs(e.tool, e.arguments), summary: visible(e.summary), reasons: e.reasons.map(visible) };
    case 'approval_decided':
      return { ...e, tool: visibleLine(e.tool), reason: e.reason === null ? null : visible(e.reason) };
    case 'approval_followup':
      return { ...e, items: e.items.map((i) => ({ ...i, tool: visibleLine(i.tool), arguments: inertArgs(i.tool, i.arguments), content: visible(i.content) })) };
    case 'tool_result':
      return { ...e, name: visibleLine(e.name), content: visible(e.content) };
    case 'route_call':
      return e.result === undefined ? e : { ...e, result: visible(e.result) };
    case 'error':
      return { ...e, message: visible(e.message) };
    case 'model_fallback':
      return { ...e, error: visible(e.error) };
    case 'slot_fallback':
      return { ...e, detail: visible(e.detail) };
    case 'core': {
      const c = e.event;
      if (c.type === 'core_progress' || c.type === 'core_notice' || c.type === 'core_sent') return { ...e, event: { ...c, text: visible(c.text) } };
      if (c.type === 'core_slot_failed') return { ...e, event: { ...c, message: visible(c.message) } };
      if (c.type === 'core_restricted') return { ...e, event: { ...c, reason: visible(c.reason) } };
      if (c.type === 'core_task') return { ...e, event: { ...c, status: visibleLine(c.status), ...(c.error === undefined ? {} : { error: visible(c.error) }) } };
      return e;
    }
    case 'instructions':
      // File names are the workspace's to choose.
      return { ...e, files: e.files.map((f) => ({ ...f, name: visibleLine(f.name) })), leftOut: e.leftOut.map(visibleLine) };
    case 'turn_end':
      return e.error === undefined ? e : { ...e, error: visible(e.error) };
    case 'taint':
      return { ...e, sources: e.sources.map(visibleLine) };
    default:
      return e;
  }
}

/** Tool arguments with every string made visible; a bash `command` shown as the modal shows it. */
export function inertArgs(tool: string, args: unknown): unknown {
  if (tool === 'bash' && isRecord(args) && typeof args.command === 'string') {
    return { ...(inertValue(args) as Record<string, unknown>), command: displayCommand(args.command) };
  }
  return inertValue(args);
}

function inertValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return visible(value);
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => inertValue(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [visibleLine(k), inertValue(v, depth + 1)]));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
