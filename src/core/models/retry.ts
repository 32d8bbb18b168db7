import type { ProviderError } from './provider.js';

/**
 * Retries of one model call (spec 4.2): only on 408/429/5xx/overload, only before the first event
 * reached the caller (the loop lives in sdk-provider.ts), with exponential backoff or the server's
 * Retry-After, whichever the server asked for, capped so a hostile header cannot stall a turn.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff; doubles per retry. Tests pass 1. */
  baseDelayMs: number;
  /** Cap on any wait, including Retry-After. */
  maxDelayMs: number;
  /** Told before each wait (for logs and tests). */
  onRetry?: (info: { attempt: number; delayMs: number; error: ProviderError }) => void;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, baseDelayMs: 1000, maxDelayMs: 30_000 };

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** `attempt` counts from 0 for the wait after the first failure. */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, policy: RetryPolicy): number {
  const wait = retryAfterMs ?? policy.baseDelayMs * 2 ** attempt;
  return Math.min(Math.max(0, wait), policy.maxDelayMs);
}

/**
 * `retry-after-ms` (OpenAI, Azure) or `Retry-After` as seconds or an HTTP date (RFC 9110).
 * Header names are lower-case, as the SDK reports them.
 */
export function parseRetryAfter(headers: Readonly<Record<string, string | undefined>> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
