import { PepeError } from '../errors.js';
import type { Message } from '../messages.js';

/**
 * Pepe's own provider interface (spec 4.2). The turn loop sees only this, never a vendor SDK, so a
 * library can be swapped without touching the loop, and the mock and the VS Code Language Model API
 * fit the same shape.
 */

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'other';

export type ProviderEvent =
  | { type: 'text_delta'; text: string }
  /** A complete call. `arguments` is the parsed JSON, or the raw string when it does not parse. */
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'finish'; reason: FinishReason };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input (an object schema). */
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  messages: Message[];
  /** Offered to the model without any executor: Pepe runs tool calls itself, behind its barrier. */
  tools: ToolSpec[];
  maxOutputTokens?: number;
}

export interface ModelProvider {
  /** The model id it answers for: a `models` key, `mock` or `mock:<path>`. */
  readonly id: string;
  /**
   * True when the model takes pictures in user messages (a model entry's `"images": true`). A
   * request carrying a picture is never sent to a provider without it (model-call.ts refuses first).
   */
  readonly acceptsImages?: boolean;
  /**
   * One model call (one step of a turn). Every failure is thrown as a ProviderError. A failure before
   * the first event means nothing was shown, so the caller may try the next model of the chain.
   */
  stream(req: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent>;
}

/**
 * `network`: no HTTP answer (refused, reset, DNS). `http`: an HTTP error status other than auth and
 * rate limits. `rate_limit`: 429. `auth`: 401/403 or a missing API key. `stream`: the answer started
 * but was broken or malformed, or carried an error event. `request`: the SDK could not build the
 * request (e.g. unsupported content). `aborted`: the caller's signal fired.
 */
export type ProviderErrorKind = 'network' | 'http' | 'rate_limit' | 'auth' | 'stream' | 'request' | 'aborted';

export class ProviderError extends PepeError {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  /** True when the same request may succeed later (408, 429, 5xx, overload). */
  readonly retryable: boolean;
  /** The server's Retry-After, in ms, when it sent one. */
  readonly retryAfterMs?: number;
  /** The variable whose key is missing or was refused, so a host can offer to store one. */
  readonly keyEnv?: string;

  constructor(kind: ProviderErrorKind, message: string, opts: { status?: number; retryable?: boolean; retryAfterMs?: number; keyEnv?: string } = {}) {
    super(message);
    this.kind = kind;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.keyEnv !== undefined) this.keyEnv = opts.keyEnv;
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
    this.retryable = opts.retryable ?? false;
  }
}

export function abortedError(what: string): ProviderError {
  return new ProviderError('aborted', `${what}: cancelled`);
}

/** Everything one call produced, for callers that do not need the deltas (compaction summaries, tests). */
export interface CollectedResponse {
  text: string;
  toolCalls: { id: string; name: string; arguments: unknown }[];
  usage: { inputTokens: number; outputTokens: number };
  finish: FinishReason;
}

export async function collect(events: AsyncIterable<ProviderEvent>): Promise<CollectedResponse> {
  const out: CollectedResponse = { text: '', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finish: 'other' };
  for await (const e of events) {
    if (e.type === 'text_delta') out.text += e.text;
    else if (e.type === 'tool_call') out.toolCalls.push({ id: e.id, name: e.name, arguments: e.arguments });
    else if (e.type === 'usage') out.usage = { inputTokens: e.inputTokens, outputTokens: e.outputTokens };
    else out.finish = e.reason;
  }
  return out;
}
