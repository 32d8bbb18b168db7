import { describeImage } from '../images.js';
import type { Message } from '../messages.js';
import type { MockScript, MockScriptStep } from './mock-script.js';
import { abortedError, type ModelProvider, type ModelRequest, type ProviderEvent } from './provider.js';
import { sleep } from './sleep.js';

/**
 * The fake provider (spec 4.2): free, offline, deterministic. `mock` echoes the last user text;
 * `mock:<path>` plays a script. The step is chosen from the prompt alone (the number of assistant
 * messages already in it), so the provider keeps no state and a fresh routed run starts at step 0.
 */
export class MockProvider implements ModelProvider {
  /** It "sees" pictures as a line naming each one, so the path a picture takes can be tested offline. */
  readonly acceptsImages = true;

  constructor(
    readonly id: string,
    private readonly script?: MockScript,
  ) {}

  async *stream(req: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent> {
    const what = `model "${this.id}"`;
    if (signal?.aborted) throw abortedError(what);
    const stepIndex = req.messages.filter((m) => m.role === 'assistant').length;
    const step: MockScriptStep | undefined = this.script?.steps[stepIndex];

    const text = !step ? echoText(req.messages) : step.echo_prompt ? renderPrompt(req.messages) : step.text ?? '';
    const pause = async () => {
      await sleep(step?.delay_ms ?? 0, signal, what);
      if (signal?.aborted) throw abortedError(what);
    };

    for (const piece of chunks(text, step?.chunk_size)) {
      await pause();
      yield { type: 'text_delta', text: piece };
    }
    const calls = step?.tool_calls ?? [];
    for (const [i, call] of calls.entries()) {
      await pause();
      // A copy: the script is shared, read-only, by every call that plays it.
      yield { type: 'tool_call', id: `call_${stepIndex}_${i}`, name: call.name, arguments: structuredClone(call.arguments ?? {}) };
    }
    // A rough estimate keeps token-based features (compaction, usage lines) exercised; cost stays 0.
    const promptChars = req.messages.reduce((n, m) => n + m.content.length, 0);
    const outputChars = text.length + calls.reduce((n, c) => n + c.name.length + JSON.stringify(c.arguments ?? {}).length, 0);
    yield { type: 'usage', inputTokens: estimateTokens(promptChars), outputTokens: estimateTokens(outputChars) };
    yield { type: 'finish', reason: calls.length > 0 ? 'tool_calls' : 'stop' };
  }
}

export function echoText(messages: readonly Message[]): string {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  return `You said: ${lastUser ? withImageLines(lastUser) : ''}`;
}

/** `role: content`, one message after another, for scripts that assert what the model was shown. */
export function renderPrompt(messages: readonly Message[]): string {
  return messages.map((m) => `${m.role}: ${withImageLines(m)}`).join('\n');
}

function withImageLines(m: Message): string {
  if (m.role !== 'user' || !m.images?.length) return m.content;
  return [m.content, ...m.images.map((i) => `[image: ${describeImage(i)}]`)].filter(Boolean).join('\n');
}

function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Splits on code points (never inside a surrogate pair); by default into about four deltas. */
function chunks(text: string, size?: number): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const n = size ?? Math.max(1, Math.ceil(chars.length / 4));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += n) out.push(chars.slice(i, i + n).join(''));
  return out;
}
