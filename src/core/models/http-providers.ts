import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ModelConfig } from '../config/schema.js';
import { UsageError } from '../errors.js';
import type { RetryPolicy } from './retry.js';
import { SdkProvider, type Env } from './sdk-provider.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
// Passed explicitly so the SDK never falls back to reading ANTHROPIC_BASE_URL from process.env.
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';

/** The key variable when `api_key_env` is absent: the vendors' usual names; local servers need none. */
const DEFAULT_KEY_ENV: Record<string, string | undefined> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

export function createHttpProvider(id: string, model: ModelConfig, env: Env, retry?: Partial<RetryPolicy>): SdkProvider {
  const apiKeyEnv = model.api_key_env ?? DEFAULT_KEY_ENV[model.provider];
  const common = {
    id,
    env,
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    ...(model.max_output_tokens ? { maxOutputTokens: model.max_output_tokens } : {}),
    acceptsImages: model.images === true,
    ...(retry ? { retry } : {}),
  };
  switch (model.provider) {
    case 'openai':
    case 'openai-compatible': {
      const baseURL = model.base_url ?? (model.provider === 'openai' ? OPENAI_BASE_URL : undefined);
      if (!baseURL) {
        throw new UsageError(`models.${id}: an "openai-compatible" model needs "base_url" (e.g. "http://localhost:11434/v1" for Ollama)`);
      }
      return new SdkProvider({
        ...common,
        baseUrl: baseURL,
        hoistSystem: false,
        // includeUsage asks for `stream_options.include_usage`: without it OpenAI sends no usage when streaming.
        createModel: (apiKey) =>
          createOpenAICompatible({ name: model.provider, baseURL, includeUsage: true, ...(apiKey ? { apiKey } : {}) }).chatModel(model.model),
      });
    }
    case 'anthropic': {
      const baseURL = model.base_url ?? ANTHROPIC_BASE_URL;
      return new SdkProvider({
        ...common,
        baseUrl: baseURL,
        hoistSystem: true,
        createModel: (apiKey) => createAnthropic({ baseURL, ...(apiKey ? { apiKey } : {}) }).messages(model.model),
      });
    }
    default:
      throw new UsageError(`models.${id}: provider "${model.provider}" is not an HTTP provider`);
  }
}
