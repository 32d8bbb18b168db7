export { costUsd, type TokenUsage } from './cost.js';
export { createProvider, type CreateProviderOptions } from './factory.js';
export { MockProvider, echoText, renderPrompt } from './mock.js';
export { MockScript, MockScriptStep, loadMockScript } from './mock-script.js';
export {
  ProviderError,
  collect,
  type CollectedResponse,
  type FinishReason,
  type ModelProvider,
  type ModelRequest,
  type ProviderErrorKind,
  type ProviderEvent,
  type ToolSpec,
} from './provider.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
export type { Env } from './sdk-provider.js';
