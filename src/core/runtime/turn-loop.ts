import type { AgentConfig, PepeConfig } from '../config/schema.js';
import type { AssistantMessage, Message, ToolMessage } from '../messages.js';
import { markOutsideContent, type RunPermissionState } from '../permissions/run-state.js';
import { type PermissionBarrier } from '../permissions/barrier.js';
import type { ModelRef } from '../slots/contracts.js';
import type { SlotService } from '../slots/slot-service.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import { contextWindowOf, needsCompaction } from './compaction.js';
import type { EventSink, TurnStatus } from '../events.js';
import { LoopGuard } from './loop-guard.js';
import { callModel, type ModelCallDeps } from './model-call.js';
import { BudgetStop } from './budget.js';
import { invokeTool, type SandboxConfinement, type ToolHooks } from './invoke-tool.js';

/** Flood bounds (a hostile or broken model): tool calls run per model message and per turn. */
export const MAX_TOOL_CALLS_PER_MESSAGE = 64;
export const MAX_TOOL_CALLS_PER_TURN = 64;

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
  /** Keeps the run's taint in its conversation after a mark (the runtime writes it to the session). */
  afterMark?: () => void;
  /** Whether the sandbox confines commands now (the barrier asks for every command when not). */
  sandbox: () => Promise<SandboxConfinement>;
  /** Hooks around each call (issue 24). */
  hooks?: ToolHooks;
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
  // Set when the guard trips while a batch is being started (see below).
  let tripped = false;
  const check = guard.check.bind(guard);
  guard.check = (name, args) => {
    const message = check(name, args);
    if (message) tripped = true;
    return message;
  };
  let toolsOff = false;
  let callsThisTurn = 0;
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
      markOutsideContent(input.run, source);
      input.afterMark?.();
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

    let answer: Awaited<ReturnType<typeof callModel>>;
    try {
      answer = await callModel(
        input.models,
        { messages, tools: toolsOff ? [] : specs },
        input.modelDeps,
        signal,
        (text) => emit({ type: 'assistant_delta', path, text }),
        (from, to, error) => emit({ type: 'model_fallback', path, from, to, error }),
      );
    } catch (e) {
      // A budget stops the turn here: every tool call so far has its result, nothing is half written.
      if (!(e instanceof BudgetStop)) throw e;
      emit({ type: 'error', path, message: e.message, recoverable: true });
      return { content: content ? `${content}\n\n[${e.message}]` : `[${e.message}]`, status: 'budget', messages };
    }
    // Spec 4.4: after the loop guard stopped tool use, this call (offered no tools) is the last
    // one: tool calls it still asks for are dropped, never answered, and the turn ends here.
    const lastCall = toolsOff;
    const toolCalls = lastCall ? [] : answer.toolCalls;
    if (lastCall && answer.toolCalls.length) emit({ type: 'error', path, message: 'loop guard: the model asked for tools again after tool use was stopped; the turn ends with its answer', recoverable: true });
    const assistant: AssistantMessage = { role: 'assistant', content: answer.text };
    if (toolCalls.length) assistant.tool_calls = toolCalls;
    const final = !toolCalls.length && !answer.cancelled;
    if (answer.text || toolCalls.length || !answer.cancelled) {
      if (final && input.recordFinal) {
        messages.push(assistant);
        input.persist(input.recordFinal(assistant));
      } else add(assistant);
    }
    emit({ type: 'assistant_message', path, content: answer.text, toolCalls, model: answer.model });
    if (answer.text) content = answer.text;
    if (answer.cancelled) return { content, status: 'cancelled', messages };
    if (!toolCalls.length) return { content, status, messages };

    // Independent read-only calls of one message run together (their waits overlap); anything
    // else runs alone, in order, as a barrier between batches. Results keep the model's order.
    const concurrent = (call: { name: string; arguments: unknown }) => CONCURRENT_TOOLS.has(call.name) && !!byName.get(call.name)?.input.safeParse(call.arguments).success;
    for (const batch of batches(toolCalls, concurrent)) {
      if (signal.aborted) {
        for (const call of batch) add(toolResult(call, 'not run: the turn was cancelled', true));
        continue;
      }
      const pending = batch.map((call) => {
        const index = toolCalls.indexOf(call);
        emit({ type: 'tool_call', path, id: call.id, name: call.name, arguments: call.arguments });
        // Flood bounds: every call still gets a result, the ones over a cap a refusal.
        const overCap =
          index >= MAX_TOOL_CALLS_PER_MESSAGE
            ? `not run: a model message may ask for at most ${MAX_TOOL_CALLS_PER_MESSAGE} tool calls in one message`
            : callsThisTurn >= MAX_TOOL_CALLS_PER_TURN
              ? `not run: at most ${MAX_TOOL_CALLS_PER_TURN} tool calls in this turn; answer with what you have`
              : null;
        if (!overCap) callsThisTurn++;
        // Started now, in the model's order: the loop guard's check runs before the call's first
        // await, so a call after one that tripped it is not started (as if run one by one).
        if (overCap) return Promise.resolve<CallResult>({ content: overCap, isError: true, untrusted: false });
        const running = runToolCall(input, ctx, byName, guard, call, toolsOff);
        if (tripped) toolsOff = true;
        return running;
      });
      const results = await Promise.all(pending);
      for (const [i, call] of batch.entries()) {
        const result = results[i]!;
        if (result.stopTools) {
          tripped = false;
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
}

/**
 * Tools that only read and never ask a person in the ordinary case: safe to run side by side. A
 * call the model wrote in one message cannot depend on another call's result of that message.
 */
export const CONCURRENT_TOOLS: ReadonlySet<string> = new Set(['read_file', 'list_dir', 'memory_search', 'web_search', 'load_skill']);

/**
 * Splits one message's calls into batches: runs of concurrent-safe calls, and every other call
 * alone. The loop passes a test that also validates the arguments, so a malformed call runs alone
 * and the loop guard counts it exactly as it would one by one.
 */
export function batches<C extends { name: string }>(calls: readonly C[], concurrent: (call: C) => boolean = (c) => CONCURRENT_TOOLS.has(c.name)): C[][] {
  const out: C[][] = [];
  let run: C[] = [];
  for (const call of calls) {
    if (concurrent(call)) {
      run.push(call);
      continue;
    }
    if (run.length) out.push(run);
    run = [];
    out.push([call]);
  }
  if (run.length) out.push(run);
  return out;
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

async function runToolCall(input: LoopInput, ctx: ToolContext, byName: Map<string, Tool<any>>, guard: LoopGuard, call: { id: string; name: string; arguments: unknown }, toolsOff: boolean): Promise<CallResult> {
  if (toolsOff) return { content: 'not run: tool use was stopped for this turn by the loop guard', isError: true, untrusted: false };
  const r = await invokeTool(byName, call, { context: ctx, barrier: input.barrier, run: input.run, sandbox: input.sandbox, ...(input.afterMark ? { afterCall: input.afterMark } : {}), ...(input.hooks ? { hooks: input.hooks } : {}) }, { guard: (name, args) => guard.check(name, args) });
  if (r.stage === 'loop_guard') return { content: r.content, isError: true, untrusted: false, stopTools: true };
  if (r.stage === 'invalid_arguments' || r.stage === 'unknown_tool') {
    const tripped = guard.malformed(call.name);
    if (tripped) return { content: `${r.content}\n${tripped}`, isError: true, untrusted: false, stopTools: true };
  }
  return { content: r.content, isError: r.isError, untrusted: r.untrusted };
}

/** Spec 4.5: condense when the prompt passes 60 % of the model's window, through the compaction slot. */
async function maybeCompact(input: LoopInput, messages: Message[]): Promise<Message[]> {
  const model = input.models[0];
  if (!model) return messages;
  if (!needsCompaction(messages, contextWindowOf(model, input.config))) return messages;
  const request = { messages, model, agentConfig: input.agentConfig, sessionKey: input.sessionId, signal: input.signal };
  const answer = await input.slots.compact(input.agent, request, { emit: input.emit, path: input.chain });
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
