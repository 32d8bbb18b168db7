import type { ModelConfig } from '../config/schema.js';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** USD for one call (spec 4.6); `price` is per million tokens. No price (mock, local models) costs 0. */
export function costUsd(usage: TokenUsage, price: ModelConfig['price'] | undefined): number {
  if (!price) return 0;
  return (usage.inputTokens * (price.input_per_mtok ?? 0) + usage.outputTokens * (price.output_per_mtok ?? 0)) / 1_000_000;
}
