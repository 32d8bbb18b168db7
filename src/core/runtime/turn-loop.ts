import type { AgentConfig, PepeConfig } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import type { AssistantMessage, Message, ToolMessage } from '../messages.js';
import type { PermissionBarrier, RunPermissionState } from '../permissions/index.js';
import type { ModelRef } from '../slots/contracts.js';
import type { SlotService } from '../slots/slot-service.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import { compactBuiltin, DEFAULT_CONTEXT_WINDOW, needsCompaction } from './compaction.js';
import type { EventSink, TurnStatus } from './events.js';
import { LoopGuard } from './loop-guard.js';
import { callModel, type ModelCallDeps } from './model-call.js';
import { createProvider } from '../models/factory.js';
import { resolveInWorkspace } from '../tools/paths.js';

export interface LoopInput {
  agent: string;
  agentConfig: AgentConfig;
  config: PepeConfig;
  chain: string[];
  sessionId: string;
  turnId: string;
  /** The prompt so far: system messages, history, this turn's user message. */
  messages: Message[];
  models: ModelRef[];
  tools: Tool<any>[];
  barrier: PermissionBarrier;
  run: RunPermissionState;
  toolContext: Omit<ToolContext, 'signal' | 'emit' | 'markOutsideContent'>;
  slots: SlotService;
  modelDeps: ModelCallDeps;
  maxSteps: number;
  signal: AbortSignal;
  emit: EventSink;
  /** Called for every message the turn adds, in order, so the transcript is written as it grows. */
  persist: (message: Message) => void;
  /** Called when compaction replaced the prompt, so a resumed session starts from the condensed view. */
  onCompacted: (messages: Message[]) => void;
  /**
   * How the final answer (no tool calls) is written. With an agent core the output pipeline
   * decides what the user gets, so the raw answer is kept only as a runtime record (spec 7).
   */
  recordFinal?: (message: AssistantMessage) => Message;
}

export interface LoopOutput {
  content: string;
  status: TurnStatus;
  error?: string;
  messages: Message[];
}

/**
 * The built-in harness (spec 4.1 step 3): call the model with the visible tools, stream its text,
 * run each tool call through the permission barrier, append results, repeat until the model
 * answers without tool calls or a limit is hit. Every tool call in the transcript gets a result,
 * even when the turn is cancelled in the middle (spec 4.1, cancellation).
 */
export async function runBuiltinLoop(input: LoopInput): Promise<LoopOutput> {
  const { emit, signal } = input;
  const path = input.chain;
  let messages = [...input.messages];
  const guard = new LoopGuard();
  let toolsOff = false;
  let status: TurnStatus = 'ok';
  let content = '';
  const add = (m: Message) => {
    messages.push(m);
    input.persist(m);
  };
  const byName = new Map(input.tools.map((t) => [t.name, t]));
  const specs = input.tools.map((t) => ToolRegistry.spec(t));
  const ctx: ToolContext = {
    ...input.toolContext,
    signal,
    emit,
    markOutsideContent: (source) => {
      input.run.tookInOutsideContent = true;
      if (!input.run.outsideContentSources.includes(source)) input.run.outsideContentSources.push(source);
    },
  };

  for (let step = 0; ; step++) {
    if (signal.aborted) return { content, status: 'cancelled', messages };
    if (step >= input.maxSteps) {
      const note = `stopped after ${input.maxSteps} model calls (limits.max_steps)`;
      emit({ type: 'error', path, message: note, recoverable: true });
      return { content: content ? `${content}\n\n[${note}]` : `[${note}]`, status: 'max_steps', messages };
    }

    messages = await maybeCompact(input, messages);

    const answer = await callModel(
      input.models,
      { messages, tools: toolsOff ? [] : specs },
      input.modelDeps,
      signal,
      (text) => emit({ type: 'assistant_delta', path, text }),
      (from, to, error) => emit({ type: 'model_fallback', path, from, to, error }),
    );
    const assistant: AssistantMessage = { role: 'assistant', content: answer.text };
    if (answer.toolCalls.length) assistant.tool_calls = answer.toolCalls;
    const final = !answer.toolCalls.length && !answer.cancelled;
    if (answer.text || answer.toolCalls.length || !answer.cancelled) {
      if (final && input.recordFinal) {
        messages.push(assistant);
        input.persist(input.recordFinal(assistant));
      } else add(assistant);
    }
    emit({ type: 'assistant_message', path, content: answer.text, toolCalls: answer.toolCalls, model: answer.model });
    if (answer.text) content = answer.text;
    if (answer.cancelled) return { content, status: 'cancelled', messages };
    if (!answer.toolCalls.length) return { content, status, messages };

    for (const call of answer.toolCalls) {
      if (signal.aborted) {
        add(toolResult(call, 'not run: the turn was cancelled', true));
        continue;
      }
      emit({ type: 'tool_call', path, id: call.id, name: call.name, arguments: call.arguments });
      const result = await runToolCall(input, ctx, byName, guard, call, toolsOff);
      if (result.stopTools) {
        toolsOff = true;
        status = 'loop_guard';
        emit({ type: 'error', path, message: result.content, recoverable: true });
      }
      const message = toolResult(call, result.content, result.isError);
      add(message);
      emit({ type: 'tool_result', path, id: call.id, name: call.name, content: result.content, isError: result.isError, untrusted: result.untrusted });
    }
  }
}

function toolResult(call: { id: string; name: string }, content: string, isError: boolean): ToolMessage {
  const m: ToolMessage = { role: 'tool', tool_call_id: call.id, name: call.name, content };
  if (isError) m.is_error = true;
  return m;
}

interface CallResult {
  content: string;
  isError: boolean;
  untrusted: boolean;
  stopTools?: boolean;
}

async function runToolCall(
  input: LoopInput,
  ctx: ToolContext,
  byName: Map<string, Tool<any>>,
  guard: LoopGuard,
  call: { id: string; name: string; arguments: unknown },
  toolsOff: boolean,
): Promise<CallResult> {
  if (toolsOff) return { content: 'not run: tool use was stopped for this turn by the loop guard', isError: true, untrusted: false };
  const tool = byName.get(call.name);
  if (!tool) {
    return { content: `unknown tool "${call.name}"; the tools available are: ${[...byName.keys()].join(', ') || 'none'}`, isError: true, untrusted: false };
  }
  const parsed = tool.input.safeParse(call.arguments);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    return { content: `invalid arguments for ${call.name}: ${detail}`, isError: true, untrusted: false };
  }
  const tripped = guard.check(call.name, parsed.data);
  if (tripped) return { content: tripped, isError: true, untrusted: false, stopTools: true };

  // The barrier shows (and a parked call keeps) the absolute directory the call would run in.
  const cwdArg = (parsed.data as { cwd?: unknown }).cwd;
  const cwd = typeof cwdArg === 'string' ? resolveInWorkspace(input.toolContext.workspace, cwdArg) : input.toolContext.workspace;
  const outcome = await input.barrier.check({
    agent: input.agent,
    agentConfig: input.agentConfig,
    chain: input.chain,
    tool: call.name,
    args: call.arguments,
    cwd,
    run: input.run,
    toolCallId: call.id,
    signal: ctx.signal,
  });
  if (!outcome.allowed) return { content: outcome.reason, isError: true, untrusted: false };
  try {
    const r = await tool.execute(parsed.data, ctx);
    return { content: r.content, isError: !!r.isError, untrusted: !!r.untrusted };
  } catch (e) {
    if (ctx.signal.aborted) return { content: 'cancelled by the user while running', isError: true, untrusted: false };
    return { content: `${call.name} failed: ${errorMessage(e)}`, isError: true, untrusted: false };
  }
}

/** Spec 4.5: condense when the prompt passes 60 % of the model's window, through the compaction slot. */
async function maybeCompact(input: LoopInput, messages: Message[]): Promise<Message[]> {
  const model = input.models[0];
  if (!model) return messages;
  const window = model.context_window ?? input.config.models?.[model.id]?.context_window ?? DEFAULT_CONTEXT_WINDOW;
  if (!needsCompaction(messages, window)) return messages;
  const answer = await input.slots.compact(
    input.agent,
    { messages, model, agentConfig: input.agentConfig, sessionKey: input.sessionId },
    async () => {
      try {
        return await compactBuiltin(messages, createProvider(model, input.config, input.modelDeps.env, input.modelDeps.providerOptions), window, input.signal);
      } catch {
        return messages;
      }
    },
  );
  if (answer.fallback) {
    input.emit({ type: 'slot_fallback', path: input.chain, slot: 'compaction', occupant: answer.occupant, reason: answer.fallback.reason, detail: answer.fallback.detail, outcome: 'builtin' });
  }
  const compacted = reinjectRules(messages, answer.result);
  if (compacted.length !== messages.length || compacted.some((m, i) => m !== messages[i])) {
    input.emit({ type: 'compaction', path: input.chain, before: messages.length, after: compacted.length, by: answer.answeredBy });
    input.onCompacted(compacted);
  }
  return compacted;
}

/** Rules that must survive (system prompt, bootstrap context) come back even if a plugin dropped them. */
function reinjectRules(before: Message[], after: Message[]): Message[] {
  const rules = before.filter((m) => m.role === 'system');
  const kept = new Set(after.filter((m) => m.role === 'system').map((m) => m.content));
  const missing = rules.filter((m) => !kept.has(m.content));
  return missing.length ? [...missing, ...after] : after;
}
