import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors.js';
import type { Message } from '../../core/messages.js';
import { ProviderError, type ModelProvider, type ModelRequest, type ProviderEvent } from '../../core/models/provider.js';

export const VSCODE_MODEL_PREFIX = 'vscode:';

/** `vscode:<vendor>/<family>` → its selector; undefined for other ids. */
export function parseVscodeModelId(id: string): { vendor: string; family: string } | undefined {
  if (!id.startsWith(VSCODE_MODEL_PREFIX)) return undefined;
  const [vendor, ...rest] = id.slice(VSCODE_MODEL_PREFIX.length).split('/');
  const family = rest.join('/');
  if (!vendor || !family) return undefined;
  return { vendor, family };
}

/**
 * A model of the VS Code Language Model API (spec 4.2) behind Pepe's provider interface, so people
 * who have Copilot or another provider extension need no API key. Pepe runs tool calls itself,
 * behind its barrier: tools are offered to the model as specs only.
 */
export class LanguageModelProvider implements ModelProvider {
  /**
   * The LM API of the VS Code version Pepe targets has no image part (LanguageModelDataPart came
   * later), so a picture is refused before any request (model-call.ts) rather than silently dropped.
   */
  readonly acceptsImages = false;

  constructor(readonly id: string, private readonly selector: { vendor: string; family: string }) {}

  async *stream(req: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent> {
    if (signal?.aborted) throw new ProviderError('aborted', `${this.id}: cancelled`);
    let models: vscode.LanguageModelChat[];
    try {
      models = await vscode.lm.selectChatModels(this.selector);
    } catch (e) {
      throw toProviderError(this.id, e);
    }
    const model = models[0];
    if (!model) {
      throw new ProviderError('request', `${this.id}: no VS Code language model with vendor "${this.selector.vendor}" and family "${this.selector.family}" is available (is its extension installed and signed in?)`);
    }
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let response: vscode.LanguageModelChatResponse;
      try {
        response = await model.sendRequest(
          toChatMessages(req.messages),
          {
            justification: 'Pepe runs your agents with this model.',
            tools: req.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
          },
          cancel.token,
        );
      } catch (e) {
        throw toProviderError(this.id, e, signal);
      }
      let calls = 0;
      try {
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) {
            if (part.value) yield { type: 'text_delta', text: part.value };
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            calls++;
            yield { type: 'tool_call', id: part.callId, name: part.name, arguments: part.input };
          }
        }
      } catch (e) {
        throw toProviderError(this.id, e, signal, 'stream');
      }
      yield { type: 'finish', reason: calls ? 'tool_calls' : 'stop' };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }
}

/** Pepe's messages → the LM API's. It has no system role: system text goes first as a user message. */
export function toChatMessages(messages: readonly Message[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
      case 'user':
        out.push(vscode.LanguageModelChatMessage.User(m.content));
        break;
      case 'assistant': {
        const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
        if (m.content) parts.push(new vscode.LanguageModelTextPart(m.content));
        for (const c of m.tool_calls ?? []) {
          const input = c.arguments && typeof c.arguments === 'object' ? (c.arguments as object) : { value: c.arguments };
          parts.push(new vscode.LanguageModelToolCallPart(c.id, c.name, input));
        }
        out.push(vscode.LanguageModelChatMessage.Assistant(parts));
        break;
      }
      case 'tool':
        out.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(m.tool_call_id, [new vscode.LanguageModelTextPart(m.content)])]));
        break;
    }
  }
  return out;
}

/** LanguageModelError codes → ProviderError kinds (spec 4.1: a failing model hands over to the next). */
export function toProviderError(id: string, e: unknown, signal?: AbortSignal, fallback: 'request' | 'stream' = 'request'): ProviderError {
  if (e instanceof ProviderError) return e;
  const message = errorMessage(e);
  if (signal?.aborted || e instanceof vscode.CancellationError) return new ProviderError('aborted', `${id}: cancelled`);
  if (e instanceof vscode.LanguageModelError) {
    const code = e.code;
    if (code === vscode.LanguageModelError.NoPermissions().code) return new ProviderError('auth', `${id}: permission to use this model was not given (${message})`);
    if (code === vscode.LanguageModelError.Blocked().code) return new ProviderError('rate_limit', `${id}: the request was blocked, e.g. by a quota (${message})`);
    if (code === vscode.LanguageModelError.NotFound().code) return new ProviderError('request', `${id}: the model is not available (${message})`);
    return new ProviderError(fallback, `${id}: ${message}${code ? ` (${code})` : ''}`);
  }
  return new ProviderError(fallback, `${id}: ${message}`);
}
