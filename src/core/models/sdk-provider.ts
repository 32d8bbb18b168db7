import { ProviderError, abortedError, type FinishReason, type ModelProvider, type ModelRequest, type ProviderEvent } from './provider.js';
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry.js';
import { streamError, toProviderError, type ErrorContext } from './sdk-errors.js';
import { toSdkPrompt, toSdkTools, type SdkCallOptions, type SdkLanguageModel, type SdkStreamPart } from './sdk-prompt.js';
import { sleep } from './sleep.js';

/** The environment API keys are read from, at call time (injected so tests and VS Code can supply their own). */
export type Env = Readonly<Record<string, string | undefined>>;

export interface SdkProviderOptions {
  id: string;
  /** Builds the SDK model for one call with the key read just now (undefined when none is configured). */
  createModel: (apiKey: string | undefined) => SdkLanguageModel;
  /** Environment variable holding the key; when set, a missing value fails before any request. */
  apiKeyEnv?: string;
  env: Env;
  /** The endpoint, named in "cannot connect" errors so the person knows what to check. */
  baseUrl?: string;
  hoistSystem: boolean;
  maxOutputTokens?: number;
  /** The model entry's `images`. */
  acceptsImages?: boolean;
  retry?: Partial<RetryPolicy>;
}

/**
 * A ModelProvider over an AI SDK LanguageModelV3 (`doStream`, one step, tools without `execute`).
 *
 * Retries are Pepe's, not the SDK's: `doStream` has none (only `streamText` has `maxRetries`), and
 * `streamText`'s retry covers only a failed `doStream` call, not an `{"error": …}` chunk or a broken
 * connection before the first token, and its 2 s base delay is fixed. Here a failure is retried only
 * while nothing has been yielded, so a caller never sees text twice.
 */
export class SdkProvider implements ModelProvider {
  readonly id: string;
  readonly acceptsImages: boolean;
  private readonly policy: RetryPolicy;

  constructor(private readonly opts: SdkProviderOptions) {
    this.id = opts.id;
    this.acceptsImages = opts.acceptsImages === true;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
  }

  async *stream(req: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent> {
    const what = `model "${this.id}"`;
    if (signal?.aborted) throw abortedError(what);
    const apiKey = this.readKey(what);
    const ctx: ErrorContext = {
      what,
      secrets: apiKey ? [apiKey] : [],
      ...(signal ? { signal } : {}),
      ...(this.opts.baseUrl ? { baseUrl: this.opts.baseUrl } : {}),
      ...(this.opts.apiKeyEnv ? { keyEnv: this.opts.apiKeyEnv } : {}),
    };
    const maxOutputTokens = req.maxOutputTokens ?? this.opts.maxOutputTokens;
    const call: SdkCallOptions = {
      prompt: toSdkPrompt(req.messages, { hoistSystem: this.opts.hoistSystem }),
      ...(req.tools.length > 0 ? { tools: toSdkTools(req.tools), toolChoice: { type: 'auto' as const } } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
      ...(signal ? { abortSignal: signal } : {}),
    };

    for (let attempt = 0; ; attempt++) {
      let emitted = false;
      try {
        const model = this.opts.createModel(apiKey);
        for await (const event of oneAttempt(model, call, ctx)) {
          emitted = true;
          yield event;
        }
        return;
      } catch (e) {
        const error = toProviderError(e, ctx);
        if (emitted || !error.retryable || attempt >= this.policy.maxRetries || signal?.aborted) throw error;
        const delayMs = retryDelayMs(attempt, error.retryAfterMs, this.policy);
        this.policy.onRetry?.({ attempt: attempt + 1, delayMs, error });
        await sleep(delayMs, signal, what);
      }
    }
  }

  private readKey(what: string): string | undefined {
    const name = this.opts.apiKeyEnv;
    if (!name) return undefined;
    const value = this.opts.env[name];
    if (!value) {
      throw new ProviderError('auth', `${what}: no API key stored for ${name}: in VS Code run "Pepe: Set API Key…"; for the pepe command, set the environment variable ${name}`, { keyEnv: name });
    }
    return value;
  }
}

/** One HTTP request: SDK stream parts → Pepe events. Throws on an error part; the loop above decides on retry. */
async function* oneAttempt(model: SdkLanguageModel, call: SdkCallOptions, ctx: ErrorContext): AsyncGenerator<ProviderEvent> {
  const { stream } = await model.doStream(call);
  const reader = stream.getReader();
  let sawToolCall = false;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const part: SdkStreamPart = value;
      switch (part.type) {
        case 'text-delta':
          if (part.delta) yield { type: 'text_delta', text: part.delta };
          break;
        case 'tool-call':
          if (part.providerExecuted) break;
          sawToolCall = true;
          yield { type: 'tool_call', id: part.toolCallId, name: part.toolName, arguments: parseArguments(part.input) };
          break;
        case 'error':
          throw streamError(part.error, ctx);
        case 'finish':
          finished = true;
          yield { type: 'usage', inputTokens: part.usage.inputTokens.total ?? 0, outputTokens: part.usage.outputTokens.total ?? 0 };
          yield { type: 'finish', reason: finishReason(part.finishReason.unified, sawToolCall) };
          break;
        default:
          // Reasoning, metadata, tool-input deltas (the complete call follows), sources: not part of Pepe's events.
          break;
      }
    }
    if (!finished) throw new ProviderError('stream', `${ctx.what}: the stream ended before the model finished`);
  } finally {
    // Stops the HTTP body when the caller stops early or an error part ended the attempt.
    reader.cancel().catch(() => {});
  }
}

/** Arguments arrive as JSON text; an empty string means "no arguments". Unparsable text is kept raw. */
function parseArguments(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function finishReason(unified: string, sawToolCall: boolean): FinishReason {
  if (unified === 'length') return 'length';
  // Some servers (Ollama, some vLLM builds) say "stop" even when they returned tool calls.
  if (sawToolCall || unified === 'tool-calls') return 'tool_calls';
  if (unified === 'stop') return 'stop';
  return 'other';
}
