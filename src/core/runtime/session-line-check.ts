import type { Message } from '../messages.js';

/**
 * A cheap check for the transcript line written most (issue 27): a plain `message` line, as the
 * session store writes it. A session file is hostile input (a confined command may have written
 * it), so this check only ever says "this line is exactly one the full schema accepts, and its
 * value is what the schema would return"; anything else (another line type, an extra key, a
 * wrong type, images, a missing field) is left to the zod schema, which decides as before. It
 * never refuses a line itself, so what is accepted and what is refused stays the schema's
 * decision, only cheaper for the ordinary line.
 */
export interface PlainMessageLine {
  type: 'message';
  ts: string;
  turnId?: string;
  message: Message;
  hidden?: boolean;
}

const LINE_KEYS = new Set(['type', 'ts', 'turnId', 'message', 'hidden']);
const TEXT_KEYS = new Set(['role', 'content']);
const ASSISTANT_KEYS = new Set(['role', 'content', 'tool_calls']);
const TOOL_KEYS = new Set(['role', 'tool_call_id', 'name', 'content', 'is_error']);
const CALL_KEYS = new Set(['id', 'name', 'arguments']);

/** An object made by `JSON.parse` (or by hand) with no prototype tricks and only `allowed` keys. */
function plainWith(value: unknown, allowed: ReadonlySet<string>): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  // for…in also walks inherited enumerable keys: one there (a polluted prototype) is declined too.
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

const optional = (value: unknown, type: 'string' | 'boolean') => value === undefined || typeof value === type;

function plainMessage(m: unknown): boolean {
  if (typeof m !== 'object' || m === null) return false;
  const role = (m as { role?: unknown }).role;
  if (role === 'system' || role === 'user') return plainWith(m, TEXT_KEYS) && typeof m.content === 'string';
  if (role === 'tool') {
    return plainWith(m, TOOL_KEYS) && typeof m.tool_call_id === 'string' && typeof m.name === 'string' && typeof m.content === 'string' && optional(m.is_error, 'boolean');
  }
  if (role !== 'assistant' || !plainWith(m, ASSISTANT_KEYS) || typeof m.content !== 'string') return false;
  const calls = m.tool_calls;
  if (calls === undefined) return true;
  if (!Array.isArray(calls)) return false;
  for (const c of calls) {
    if (!plainWith(c, CALL_KEYS) || typeof c.id !== 'string' || typeof c.name !== 'string' || !Object.hasOwn(c, 'arguments')) return false;
  }
  return true;
}

/** The line itself when it is a plain message line; undefined: ask the schema. */
export function plainMessageLine(value: unknown): PlainMessageLine | undefined {
  if (!plainWith(value, LINE_KEYS)) return undefined;
  if (value.type !== 'message' || typeof value.ts !== 'string' || !optional(value.turnId, 'string') || !optional(value.hidden, 'boolean')) return undefined;
  return plainMessage(value.message) ? (value as unknown as PlainMessageLine) : undefined;
}
