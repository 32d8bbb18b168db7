import type { PepeConfig } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import { createProvider, type CreateProviderOptions } from './factory.js';
import { ProviderError, type ProviderErrorKind } from './provider.js';
import type { Env } from './sdk-provider.js';

export type ModelTestResult =
  | { ok: true; model: string; text: string; ms: number }
  | { ok: false; model: string; kind: ProviderErrorKind | 'config'; message: string; keyEnv?: string; ms: number };

const PROMPT = 'This is a connection test from Pepe. Reply with the single word: ok';

/**
 * One small real request to a model (Add Model's "test"): the same provider a turn would use, no
 * retries, a deadline, and the exact problem when it fails (missing key, refused key, unreachable
 * endpoint, unknown model). Never throws.
 */
export async function testModel(id: string, config: PepeConfig, env: Env, options: CreateProviderOptions = {}, timeoutMs = 30_000): Promise<ModelTestResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  let text = '';
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const provider = createProvider(id, config, env, { ...options, retry: { ...options.retry, maxRetries: 0 } });
    for await (const event of provider.stream({ messages: [{ role: 'user', content: PROMPT }], tools: [], maxOutputTokens: 16 }, signal)) {
      if (event.type === 'text_delta') text += event.text;
    }
    return { ok: true, model: id, text: text.trim(), ms: ms() };
  } catch (e) {
    if (signal.aborted) return { ok: false, model: id, kind: 'network', message: `model "${id}": no answer within ${Math.round(timeoutMs / 1000)} s`, ms: ms() };
    if (e instanceof ProviderError) return { ok: false, model: id, kind: e.kind, message: e.message, ...(e.keyEnv ? { keyEnv: e.keyEnv } : {}), ms: ms() };
    return { ok: false, model: id, kind: 'config', message: errorMessage(e), ms: ms() };
  }
}
