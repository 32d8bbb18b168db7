import { abortedError } from './provider.js';

/** Waits `ms`, or throws an `aborted` ProviderError as soon as `signal` fires (Stop must not wait out a backoff). */
export function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortedError(what));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
