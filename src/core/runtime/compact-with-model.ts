import type { PepeConfig } from '../config/schema.js';
import type { Message } from '../messages.js';
import { createProvider, type CreateProviderOptions } from '../models/factory.js';
import type { ModelRef } from '../slots/contracts.js';
import { compactBuiltin, contextWindowOf } from './compaction.js';

/**
 * The built-in compaction as the slot service calls it: the model's window from its reference or
 * `models.<id>.context_window`, the summary written by that model.
 */
export async function summariseWithModel(
  messages: Message[],
  model: ModelRef,
  deps: { config: PepeConfig; env: NodeJS.ProcessEnv; providerOptions?: CreateProviderOptions },
  signal?: AbortSignal,
): Promise<Message[]> {
  const window = contextWindowOf(model, deps.config);
  return compactBuiltin(messages, createProvider(model, deps.config, deps.env, deps.providerOptions), window, signal);
}
