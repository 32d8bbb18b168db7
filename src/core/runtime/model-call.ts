import type { PepeConfig } from '../config/schema.js';
import { errorMessage, PepeError } from '../errors.js';
import type { Message } from '../messages.js';
import { costUsd } from '../models/cost.js';
import { createProvider, type CreateProviderOptions } from '../models/factory.js';
import { ProviderError, type FinishReason, type ModelProvider, type ToolSpec } from '../models/provider.js';
import type { ModelRef } from '../slots/contracts.js';
import type { UsageLedger } from './usage.js';
import { BudgetStop, budgetRefusal, worstCaseUsd, type Budget } from './budget.js';
import { contextWindowOf, estimateTokens } from './compaction.js';
import { imageGate } from './image-gate.js';

export interface ModelAnswer {
  model: string;
  text: string;
  toolCalls: { id: string; name: string; arguments: unknown }[];
  finish: FinishReason;
  /** True when the stream was cut by cancellation; `text` holds what arrived. */
  cancelled: boolean;
}

export interface ModelCallDeps {
  config: PepeConfig;
  env: NodeJS.ProcessEnv;
  usage: UsageLedger;
  providerOptions?: CreateProviderOptions;
  agent: string;
  project: string | null;
  /** Written with each usage record, so a surface can sum a turn's or a session's spend. */
  sessionId?: string;
  turnId?: string;
  /** The budgets this call must fit (budget.ts), read afresh before each call. */
  budgets?: () => Budget[];
  /**
   * The providers made for this turn's models, by model reference: a turn's calls reuse them (a
   * provider holds no state between requests) instead of making one per call (for a scripted mock
   * model, a stat of its script per call).
   */
  providers?: WeakMap<ModelRef, ModelProvider>;
}

/** A model in the chain that costs money while the project is at `dead` (spec 4.6). */
function isPaid(config: PepeConfig, id: string): boolean {
  const price = config.models?.[id]?.price;
  return !!price && ((price.input_per_mtok ?? 0) > 0 || (price.output_per_mtok ?? 0) > 0);
}

/**
 * One model call of a turn, walking the chain (spec 4.1 step 2): a model that fails before it
 * has streamed anything is skipped for the next; a failure after the first token is the turn's
 * error (falling back then would show the user two half answers).
 */
export async function callModel(
  chain: readonly ModelRef[],
  request: { messages: Message[]; tools: ToolSpec[] },
  deps: ModelCallDeps,
  signal: AbortSignal,
  onDelta: (text: string) => void,
  onFallback: (from: string, to: string | null, error: string) => void,
): Promise<ModelAnswer> {
  const failures: string[] = [];
  const overBudget: string[] = [];
  for (let i = 0; i < chain.length; i++) {
    const ref = chain[i]!;
    const next = chain[i + 1]?.id ?? null;
    // A paid model whose worst case could exceed a budget is not called (the next one may be free).
    const tooDear = budgetCheck(ref, request, deps);
    if (tooDear) {
      overBudget.push(`${ref.id}: ${tooDear}`);
      failures.push(`${ref.id}: ${tooDear}`);
      onFallback(ref.id, next, tooDear);
      continue;
    }
    if (deps.project && isPaid(deps.config, ref.id) && deps.usage.tier(deps.config, deps.project) === 'dead') {
      const why = `project ${deps.project} has reached its spend cap; paid model calls are refused`;
      failures.push(`${ref.id}: ${why}`);
      onFallback(ref.id, next, why);
      continue;
    }
    let provider: ModelProvider;
    try {
      const made = deps.providers?.get(ref);
      provider = made ?? createProvider(ref, deps.config, deps.env, deps.providerOptions);
      if (!made) deps.providers?.set(ref, provider);
    } catch (e) {
      failures.push(`${ref.id}: ${errorMessage(e)}`);
      onFallback(ref.id, next, errorMessage(e));
      continue;
    }
    // A picture never reaches a model that cannot take it: refused here, before any request.
    const gate = imageGate(provider, request.messages);
    if (gate.refusal !== null) {
      failures.push(`${ref.id}: ${gate.refusal}`);
      onFallback(ref.id, next, gate.refusal);
      continue;
    }
    const sent = gate.messages === request.messages ? request : { ...request, messages: gate.messages };
    const answer: ModelAnswer = { model: ref.id, text: '', toolCalls: [], finish: 'other', cancelled: false };
    let started = false;
    let usage = { inputTokens: 0, outputTokens: 0 };
    try {
      for await (const event of provider.stream(sent, signal)) {
        started = true;
        if (event.type === 'text_delta') {
          answer.text += event.text;
          onDelta(event.text);
        } else if (event.type === 'tool_call') answer.toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments });
        else if (event.type === 'usage') usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
        else answer.finish = event.reason;
      }
    } catch (e) {
      if (signal.aborted) {
        answer.cancelled = true;
        answer.toolCalls = [];
        return answer;
      }
      if (started || !(e instanceof ProviderError)) throw e instanceof PepeError ? e : new PepeError(`model ${ref.id} failed: ${errorMessage(e)}`);
      failures.push(`${ref.id}: ${e.message}`);
      onFallback(ref.id, next, e.message);
      continue;
    } finally {
      if (usage.inputTokens || usage.outputTokens) {
        const ids = { ...(deps.sessionId ? { sessionId: deps.sessionId } : {}), ...(deps.turnId ? { turnId: deps.turnId } : {}) };
        deps.usage.record({ agent: deps.agent, project: deps.project, model: ref.id, ...usage, costUsd: costUsd(usage, deps.config.models?.[ref.id]?.price), ...ids });
      }
    }
    return answer;
  }
  if (overBudget.length) throw new BudgetStop(`stopped before a model call: ${failures.join('; ')}`);
  throw new PepeError(`every model in the chain failed: ${failures.join('; ')}`);
}

/**
 * Its estimated input (messages and tool definitions) plus the most it may write: the model's
 * `max_output_tokens`, else whatever its context window leaves after the input.
 */
function budgetCheck(ref: ModelRef, request: { messages: Message[]; tools: ToolSpec[] }, deps: ModelCallDeps): string | null {
  const model = deps.config.models?.[ref.id];
  if (!deps.budgets || !model?.price) return null;
  const budgets = deps.budgets();
  if (!budgets.length) return null;
  const input = estimateTokens(request.messages) + Math.ceil(JSON.stringify(request.tools).length / 4);
  const maxOutput = model.max_output_tokens ?? Math.max(0, contextWindowOf(ref, deps.config) - input);
  return budgetRefusal(worstCaseUsd(input, maxOutput, model.price), budgets);
}
