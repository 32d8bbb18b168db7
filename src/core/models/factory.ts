import { isAbsolute, resolve } from 'node:path';
import type { ModelConfig, PepeConfig } from '../config/schema.js';
import { UsageError } from '../errors.js';
import type { ModelRef } from './model-ref.js';
import { createHttpProvider } from './http-providers.js';
import { MockProvider } from './mock.js';
import { loadMockScriptCached } from './mock-script.js';
import type { ModelProvider } from './provider.js';
import type { RetryPolicy } from './retry.js';
import type { Env } from './sdk-provider.js';

export interface CreateProviderOptions {
  /** Where relative `mock:<path>` scripts are found (default: the current directory). */
  baseDir?: string;
  retry?: Partial<RetryPolicy>;
  /** Models only a host can supply, e.g. `vscode:<vendor>/<family>` in the extension. */
  external?: (id: string) => ModelProvider | undefined;
}

/**
 * A model id (spec 2) → its provider: a key of `models` first (so a configured "mock" wins), then the
 * built-in `mock` / `mock:<path>`, then whatever the host supplies. Unknown ids are a clear error.
 */
export function createProvider(ref: string | ModelRef, config: PepeConfig, env: Env, options: CreateProviderOptions = {}): ModelProvider {
  const id = typeof ref === 'string' ? ref : ref.id;
  const configured = config.models?.[id];
  if (configured) return fromConfig(id, configured, env, options);
  if (id === 'mock') return new MockProvider(id);
  if (id.startsWith('mock:')) return mockScript(id, id.slice('mock:'.length), options);
  const external = options.external?.(id);
  if (external) return external;
  if (id.startsWith('vscode:')) {
    throw new UsageError(`model "${id}": VS Code Language Model API models are available only inside VS Code`);
  }
  const known = Object.keys(config.models ?? {});
  throw new UsageError(
    `unknown model "${id}": use ${known.length ? `one of ${known.map((k) => `"${k}"`).join(', ')} (keys of "models" in config.json), ` : 'a key of "models" in config.json, '}"mock" or "mock:<script.json>"`,
  );
}

function fromConfig(id: string, model: ModelConfig, env: Env, options: CreateProviderOptions): ModelProvider {
  if (model.provider !== 'mock') return createHttpProvider(id, model, env, options.retry);
  // `model` is "mock" (echo) or a script path, with or without the "mock:" prefix.
  if (model.model === 'mock') return new MockProvider(id);
  return mockScript(id, model.model.replace(/^mock:/, ''), options);
}

function mockScript(id: string, path: string, options: CreateProviderOptions): MockProvider {
  if (!path) throw new UsageError(`model "${id}": name a script file after "mock:", e.g. "mock:demo.json"`);
  const file = isAbsolute(path) ? path : resolve(options.baseDir ?? process.cwd(), path);
  return new MockProvider(id, loadMockScriptCached(file));
}
