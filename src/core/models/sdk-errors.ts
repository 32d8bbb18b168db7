import { redact } from '../secrets/scrub.js';
import { ProviderError, abortedError } from './provider.js';
import { isRetryableStatus, parseRetryAfter } from './retry.js';
import { errorMessage } from '../errors.js';

/**
 * Turns whatever the AI SDK throws or puts in its stream into a ProviderError. Messages are built
 * here from known fields only, then redacted: a server may echo the key back in its error body, and
 * the original error (with headers and bodies) is deliberately not kept as `cause`.
 */
export interface ErrorContext {
  /** `model "fast"`: how messages name the model. */
  what: string;
  /** Values to scrub from messages (the API key in use). */
  secrets: readonly string[];
  signal?: AbortSignal;
  /** The model's endpoint: a connection failure names it and says what to check. */
  baseUrl?: string;
  /** The key variable in use: a 401/403 says which key was refused. */
  keyEnv?: string;
}

/** The SDK marks its errors with registered symbols so `isInstance` works across package copies; so do we. */
function sdkErrorNamed(e: unknown, name: string): boolean {
  const marker = Symbol.for(name ? `vercel.ai.error.${name}` : 'vercel.ai.error');
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[marker] === true;
}

interface ApiCallErrorShape {
  message: string;
  url?: string;
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  cause?: unknown;
}

const MAX_DETAIL = 500;

const CONNECT_HINT = 'check that the server is running and reachable from this machine, and that the model\'s base_url in config.json is right (it ends before /chat/completions)';

function clean(text: string, ctx: ErrorContext): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const short = oneLine.length > MAX_DETAIL ? `${oneLine.slice(0, MAX_DETAIL)}…` : oneLine;
  return redact(short, ctx.secrets);
}

function causeCode(e: unknown): string | undefined {
  for (let c: unknown = e, depth = 0; c && typeof c === 'object' && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function isAbort(e: unknown): boolean {
  const name = (e as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError' || sdkErrorNamed(e, 'AI_AbortError');
}

export function toProviderError(e: unknown, ctx: ErrorContext): ProviderError {
  if (e instanceof ProviderError) return e;
  if (ctx.signal?.aborted || isAbort(e)) return abortedError(ctx.what);

  if (sdkErrorNamed(e, 'AI_APICallError')) {
    const api = e as ApiCallErrorShape;
    const status = api.statusCode;
    if (status === undefined) {
      const code = causeCode(api.cause);
      return new ProviderError('network', clean(`${ctx.what}: cannot connect to ${ctx.baseUrl ?? hostOf(api.url)}${code ? ` (${code})` : ''}: ${CONNECT_HINT}`, ctx));
    }
    if (status >= 200 && status < 300) {
      // The answer started, then the connection broke while reading it. Retryable: the caller only
      // retries while nothing has been shown, and then a repeat is invisible.
      const code = causeCode(api.cause);
      return new ProviderError('network', clean(`${ctx.what}: the connection broke while streaming${code ? ` (${code})` : ''}`, ctx), { retryable: true });
    }
    const retryAfterMs = parseRetryAfter(api.responseHeaders);
    const kind = status === 401 || status === 403 ? 'auth' : status === 429 ? 'rate_limit' : 'http';
    const opts = { status, retryable: isRetryableStatus(status), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    const refused = kind === 'auth' && ctx.keyEnv ? ` (the key in ${ctx.keyEnv} was refused: store the right one with "Pepe: Set API Key…" or in that environment variable)` : '';
    return new ProviderError(kind, clean(`${ctx.what}: HTTP ${status}${refused}: ${api.message}`, ctx), { ...opts, ...(kind === 'auth' && ctx.keyEnv ? { keyEnv: ctx.keyEnv } : {}) });
  }

  // An SDK error that is not a failed call: it could not build the request or read the answer.
  if (sdkErrorNamed(e, 'AI_UnsupportedFunctionalityError') || sdkErrorNamed(e, 'AI_InvalidPromptError') || sdkErrorNamed(e, 'AI_InvalidArgumentError')) {
    return new ProviderError('request', clean(`${ctx.what}: ${(e as Error).message}`, ctx));
  }
  if (sdkErrorNamed(e, '')) return new ProviderError('stream', clean(`${ctx.what}: malformed response: ${(e as Error).message}`, ctx));

  // undici reports a connection cut mid-body as TypeError("terminated") with a socket error cause.
  if (e instanceof TypeError || causeCode(e)) {
    const code = causeCode(e);
    return new ProviderError('network', clean(`${ctx.what}: connection failed${code ? ` (${code})` : ''}: ${(e as Error).message}`, ctx));
  }
  return new ProviderError('stream', clean(`${ctx.what}: ${errorMessage(e)}`, ctx));
}

/** Error types a provider puts in the stream when it is busy, not when the request is wrong. */
const TRANSIENT_STREAM_ERRORS = /overloaded|rate_limit|server_error|api_error|timeout|unavailable/i;

/**
 * An error event inside a 200 stream: `{"error": {...}}` (OpenAI-compatible) or `event: error`
 * (Anthropic). Transient ones are retryable, which the caller honours only before the first token.
 */
export function streamError(value: unknown, ctx: ErrorContext): ProviderError {
  if (value instanceof Error || sdkErrorNamed(value, '')) return toProviderError(value, ctx);
  const obj = (typeof value === 'object' && value !== null ? value : { message: String(value) }) as Record<string, unknown>;
  const type = typeof obj.type === 'string' ? obj.type : typeof obj.code === 'string' ? obj.code : undefined;
  const message = typeof obj.message === 'string' ? obj.message : JSON.stringify(obj);
  const retryable = type !== undefined && TRANSIENT_STREAM_ERRORS.test(type);
  const kind = type !== undefined && /rate_limit/i.test(type) ? 'rate_limit' : 'stream';
  return new ProviderError(kind, clean(`${ctx.what}: error in stream${type ? ` (${type})` : ''}: ${message}`, ctx), { retryable });
}

function hostOf(url: string | undefined): string {
  if (!url) return 'the API';
  try {
    return new URL(url).host;
  } catch {
    return 'the API';
  }
}
