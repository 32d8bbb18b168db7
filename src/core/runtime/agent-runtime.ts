import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import {
  composePrompt,
  inputMessages,
  modelHistory,
  outputMessages,
  runBootstrap,
  runInput,
  runOutput,
  RUNTIME_RECORD_FIELD,
  type PipelineSelection,
  type Sdk,
  type ToolSelection,
} from '../cores/index.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import { PluginCallError } from '../plugins/plugin-worker.js';
import { CoreCache } from './core-cache.js';
import { RuntimeCoreHost } from './core-host.js';
import type { AgentConfig, PepeConfig } from '../config/schema.js';
import { errorMessage, UsageError } from '../errors.js';
import type { Message } from '../messages.js';
import type { CreateProviderOptions } from '../models/factory.js';
import { markOutsideContent, newRunState, PermissionBarrier, type BarrierEvent, type PendingApprovals, type Prompter } from '../permissions/index.js';
type JsonValue = Sdk.JsonValue;
import type { LogRecord } from '../log.js';
import { HarnessResult, type HarnessPlugin } from '../slots/contracts.js';
import type { Pepe } from '../pepe.js';
import { staticChain, modelRef } from '../slots/builtin/model-select.js';
import type { ModelRef } from '../slots/contracts.js';
import { MANAGE_ROUTING_SKILL, ROUTING_TOOLS } from '../routing/tools.js';
import { routingFor } from '../routing/router.js';
import { BUILTIN_TOOLS, ToolRegistry } from '../tools/registry.js';
import type { EventSink, TurnEvent, TurnResult } from './events.js';
import { followUpMessage } from './follow-up.js';
import { runBuiltinLoop } from './turn-loop.js';
import type { SessionStore } from './session-store.js';
import type { UsageLedger } from './usage.js';

export interface RunTurnOptions {
  agent: string;
  text: string;
  /** Resume this session; a new one is started when absent. */
  sessionId?: string;
  /** An explicit model bypasses the model_select slot (spec 3.3). */
  model?: string;
  signal?: AbortSignal;
  onEvent?: EventSink;
  /** Route chain of the caller for a routed run (spec 6.2); empty for a user's turn. */
  parentChain?: string[];
  /** False when nobody can be asked (pepe run without a TTY, --no-input, heartbeat). */
  personPresent?: boolean;
  /** Title for a new session (routed runs are titled after their caller's chain). */
  sessionTitle?: string;
  /** For a child agent run by an agent core (spec 7): which pipeline slots and tools it gets. */
  child?: { input: PipelineSelection; output: PipelineSelection; tools: ToolSelection; useBootstrap: boolean };
}

/** Spec 7 child agents: 'none' hides every tool; a list narrows the child's configured tools. */
function narrowTools(tools: Tool<any>[], selection: ToolSelection): Tool<any>[] {
  if (selection === 'all') return tools;
  if (selection === 'none') return [];
  return tools.filter((t) => selection.only.includes(t.name));
}

/** The raw final answer of a turn whose core decides what is delivered: kept only as a runtime record. */
function asRecord(m: Message): Message {
  return { ...m, [RUNTIME_RECORD_FIELD]: true } as Message;
}

export interface RuntimeDeps {
  pepe: Pepe;
  sessions: SessionStore;
  usage: UsageLedger;
  pending: PendingApprovals;
  prompter: Prompter | null;
  workspace: string;
  tools?: ToolRegistry;
  providerOptions?: CreateProviderOptions;
  /** Workspace Trust (spec 7): when false, agent cores run only base_input/base_output. */
  trusted: () => boolean;
}

const DEFAULT_MAX_STEPS = 50;

/**
 * Runs turns (spec 4.1): resolves the agent and its session, hands the turn to a harness plugin
 * when one is pinned, otherwise to the built-in loop, and writes the transcript as it goes.
 */
export class AgentRuntime {
  readonly tools: ToolRegistry;
  private readonly cores = new CoreCache();
  /** One barrier per session: it holds the session's "allow for this session" grants. */
  private barriers = new Map<string, { barrier: PermissionBarrier; sink: { emit: EventSink } }>();

  constructor(private readonly deps: RuntimeDeps) {
    this.tools = deps.tools ?? new ToolRegistry([...BUILTIN_TOOLS, ...ROUTING_TOOLS]);
  }

  async runTurn(opts: RunTurnOptions): Promise<TurnResult & { coreResult?: JsonValue | null }> {
    const { pepe, sessions } = this.deps;
    // A running turn keeps the configuration it started with (spec 2).
    const config: PepeConfig = pepe.config;
    const agentConfig = config.agents?.[opts.agent];
    if (!agentConfig) throw new UsageError(`unknown agent "${opts.agent}"; add it with: pepe agent add ${opts.agent} --model mock`);
    const chain = [...(opts.parentChain ?? []), opts.agent];
    const path = chain;
    const signal = opts.signal ?? new AbortController().signal;
    const emit: EventSink = (e) => opts.onEvent?.(e);
    const turnId = randomBytes(4).toString('hex');

    let sessionId = opts.sessionId;
    if (sessionId && !sessions.exists(opts.agent, sessionId)) throw new UsageError(`no session ${sessionId} for agent ${opts.agent}; see pepe sessions list ${opts.agent}`);
    if (!sessionId) {
      sessionId = sessions.create(opts.agent);
      if (opts.sessionTitle) sessions.rename(opts.agent, sessionId, opts.sessionTitle);
    }
    const session = sessions.load(opts.agent, sessionId);
    const history = session.messages;
    const persist = (m: Message) => sessions.appendMessage(opts.agent, sessionId!, m, { turnId });

    const personPresent = (opts.personPresent ?? true) && !!this.deps.prompter?.interactive;
    const run = newRunState();
    const barrier = this.barrierFor(sessionId, personPresent, emit);
    const routing = routingFor(
      { config: () => config, runTurn: (o) => this.runTurn(o), routeAdd: (f, t) => pepe.routeAdd(f, t), routeRemove: (f, t) => pepe.routeRemove(f, t) },
      { agent: opts.agent, chain, signal, emit, personPresent },
    );
    const tools = narrowTools(this.tools.visibleTo(agentConfig), opts.child?.tools ?? 'all');
    const toolContext: ToolContext = {
      agent: opts.agent,
      agentConfig,
      chain,
      sessionId,
      workspace: this.deps.workspace,
      config,
      env: pepe.env,
      paths: pepe.paths,
      slots: pepe.slots,
      builtins: pepe.builtins,
      routing: routing.hooks,
      signal,
      emit,
      markOutsideContent: (source) => markOutsideContent(run, source),
    };

    // Parked calls a person resolved since the last turn come back first (spec 5.4).
    const followUp = await followUpMessage(this.deps.pending, this.tools, opts.agent, sessionId, (tool, args, cwd) =>
      this.executeApproved(opts.agent, agentConfig, config, chain, sessionId!, tool, args, cwd, signal, emit),
    );
    const rawText = followUp ? `${followUp.text}\n\n${opts.text}` : opts.text;
    let messages: Message[] = [];
    let coreResult: JsonValue | null = null;
    const finish = (content: string, status: TurnResult['status'], error?: string, all: Message[] = messages, switchTo?: string) => {
      const extra = { ...(error ? { error } : {}), ...(switchTo ? { switchTo } : {}) };
      emit({ type: 'turn_end', path, agent: opts.agent, sessionId: sessionId!, turnId, content, status, ...extra });
      return { agent: opts.agent, sessionId: sessionId!, turnId, content, status, ...extra, tookInOutsideContent: run.tookInOutsideContent, messages: all, coreResult };
    };

    let models: ModelRef[] = [];
    try {
      models = opts.model ? [modelRef(config, opts.model)] : await this.chainFor(opts.agent, agentConfig, config, path, emit);
    } finally {
      emit({ type: 'turn_start', path, agent: opts.agent, sessionId, turnId, model: models[0]?.id ?? null });
      if (followUp) emit({ type: 'approval_followup', path, items: followUp.items });
    }

    try {
      // Spec 7: an agent core shapes the turn before and after the model.
      const core = agentConfig.core ? this.cores.get(resolve(pepe.paths.home, agentConfig.core), this.deps.trusted()) : null;
      const host = core
        ? new RuntimeCoreHost({
            agent: opts.agent, agentConfig, sessionId, workspace: this.deps.workspace, chain, tools, toolContext, barrier, run, sessions,
            sessionState: session.state, coreStateFile: join(pepe.paths.agents, opts.agent, 'core-state.json'), personPresent, signal, emit,
            runTurn: (o) => this.runTurn(o),
          })
        : null;
      const system = this.systemMessages(opts.agent, agentConfig, config);
      if (core && host) {
        const useBootstrap = opts.child?.useBootstrap ?? true;
        let bootstrap = useBootstrap ? session.bootstrap : [];
        if (bootstrap === null) {
          // Bootstrap runs once per session; its snapshot is persisted and re-injected every turn.
          bootstrap = (await runBootstrap(core, host, { signal })).texts;
          sessions.appendBootstrap(opts.agent, sessionId, bootstrap);
        }
        const input = await runInput(core, host, { rawText, turnId, history, signal, ...(opts.child ? { selection: opts.child.input } : {}) });
        for (const notice of input.notices) emit({ type: 'core', path, event: { type: 'core_notice', slotId: null, text: notice } });
        const withSkills = host.skills.length ? [...system, { role: 'system' as const, content: host.skills.join('\n\n') }] : system;
        messages = composePrompt({ system: withSkills, bootstrap: bootstrap ?? [], history, context: input.context });
        for (const m of inputMessages(input.context).persist) persist(m);
      } else {
        const userMessage: Message = { role: 'user', content: rawText };
        persist(userMessage);
        messages = [...system, ...modelHistory(history), userMessage];
      }

      let content: string;
      let status: TurnResult['status'] = 'ok';
      let error: string | undefined;
      const harness = await pepe.slots.harnessFor(opts.agent);
      if (harness) {
        [content, status, error] = await this.runHarnessPlugin(harness, opts.agent, agentConfig, messages, signal, emit, core ? (m) => persist(asRecord(m)) : persist, path);
      } else {
        if (!models.length) throw new UsageError(`no model configured for agent ${opts.agent}: set "model" for it, or "default_model_chain"`);
        const out = await runBuiltinLoop({
          agent: opts.agent,
          agentConfig,
          config,
          chain,
          sessionId,
          turnId,
          messages,
          models,
          tools,
          barrier,
          run,
          toolContext,
          slots: pepe.slots,
          modelDeps: { config, env: pepe.env, usage: this.deps.usage, providerOptions: this.deps.providerOptions, agent: opts.agent, project: agentConfig.project ?? null },
          maxSteps: config.limits?.max_steps ?? DEFAULT_MAX_STEPS,
          signal,
          emit,
          persist,
          onCompacted: (all) => sessions.appendCompaction(opts.agent, sessionId!, all.filter((m) => m.role !== 'system')),
          ...(core ? { recordFinal: asRecord } : {}),
        });
        messages = out.messages;
        ({ content, status, error } = out);
      }

      if (core && host && status !== 'cancelled') {
        const output = await runOutput(core, host, { responseText: content, rawText, turnId, history, signal, ...(opts.child ? { selection: opts.child.output } : {}) });
        for (const m of outputMessages(content, output.sent).persist) persist(m);
        for (const notice of output.notices) emit({ type: 'core', path, event: { type: 'core_notice', slotId: null, text: notice } });
        coreResult = output.result;
        content = output.delivered;
      }
      return finish(content, status, error, messages, routing.switchTo());
    } catch (e) {
      const message = errorMessage(e);
      emit({ type: 'error', path, message, recoverable: false });
      return finish('', signal.aborted ? 'cancelled' : 'error', message);
    }
  }

  private systemMessages(agent: string, agentConfig: AgentConfig, config: PepeConfig): Message[] {
    const parts = [agentConfig.system_prompt ?? `You are ${agent}, an AI agent running in Pepe. Use your tools when they help; answer concisely.`];
    const visible = new Set(this.tools.visibleTo(agentConfig).map((t) => t.name));
    const targets = (agentConfig.can_message ?? []).filter((t) => config.agents?.[t]);
    if (visible.has('send_to_agent') && targets.length) parts.push(`You may consult these agents with send_to_agent: ${targets.join(', ')}.`);
    if (visible.has('set_route')) parts.push(MANAGE_ROUTING_SKILL);
    return [{ role: 'system', content: parts.join('\n\n') }];
  }

  /** Spec 3.3: model_select is asked once per turn, before the chain is walked. */
  private async chainFor(agent: string, agentConfig: AgentConfig, config: PepeConfig, path: string[], emit: EventSink): Promise<ModelRef[]> {
    const answer = await this.deps.pepe.slots.modelChain(agent, agentConfig, this.deps.usage.tiers(config), async () => staticChain(config, agentConfig));
    if (answer.fallback) emit({ type: 'slot_fallback', path, slot: 'model_select', occupant: answer.occupant, reason: answer.fallback.reason, detail: answer.fallback.detail, outcome: 'builtin' });
    return answer.result;
  }

  private barrierFor(sessionId: string, personPresent: boolean, emit: EventSink): PermissionBarrier {
    const key = `${sessionId}\u0000${personPresent}`;
    let entry = this.barriers.get(key);
    if (!entry) {
      const sink = { emit };
      const barrier = new PermissionBarrier({
        prompter: personPresent ? this.deps.prompter : null,
        pending: this.deps.pending,
        sessionId,
        persistAlwaysAllow: (agent, tool) => this.deps.pepe.allowAlways(agent, tool),
        onEvent: (e) => {
          sink.emit(toTurnEvent(e));
          this.deps.pepe.log.write(logRecord(e));
        },
      });
      entry = { barrier, sink };
      this.barriers.set(key, entry);
    }
    // The same session's next turn streams to its own surface callback.
    entry.sink.emit = emit;
    return entry.barrier;
  }

  private async runHarnessPlugin(
    harness: { name: string; plugin: HarnessPlugin },
    agent: string,
    agentConfig: AgentConfig,
    messages: Message[],
    signal: AbortSignal,
    emit: EventSink,
    persist: (m: Message) => void,
    path: string[],
  ): Promise<[string, TurnResult['status'], string?]> {
    const started = performance.now();
    const deadline = this.deps.pepe.slots.deadlineMs('harness');
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        Promise.resolve(
          harness.plugin.run({ name: agent, ...agentConfig }, messages, {
            signal,
            onEvent: (e) => {
              if (e.type === 'assistant_delta' && typeof e.text === 'string') emit({ type: 'assistant_delta', path, text: e.text });
            },
          }),
        ),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new PluginCallError('timeout', `no answer within ${deadline} ms`)), deadline);
        }),
      ]);
      const parsed = HarnessResult.safeParse(result);
      if (!parsed.success) throw new PluginCallError('malformed', `result does not match the harness contract: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      persist({ role: 'assistant', content: parsed.data.content });
      emit({ type: 'assistant_message', path, content: parsed.data.content, toolCalls: [], model: `harness:${harness.name}` });
      return [parsed.data.content, 'ok', undefined];
    } catch (e) {
      // Spec 3.3: the harness's failure is the turn's error; the built-in loop never re-runs it.
      throw this.deps.pepe.slots.harnessFailed(agent, harness.name, e, performance.now() - started);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a call a person approved after it was parked, where it would have run (its cwd). */
  private async executeApproved(agent: string, agentConfig: AgentConfig, config: PepeConfig, chain: string[], sessionId: string, toolName: string, args: unknown, cwd: string, signal: AbortSignal, emit: EventSink) {
    const tool = this.tools.get(toolName);
    if (!tool) return { content: `unknown tool ${toolName}`, isError: true };
    // The parked cwd is already the absolute directory the call was to run in.
    const { cwd: _relative, ...rest } = (args ?? {}) as Record<string, unknown>;
    const parsed = tool.input.safeParse(rest);
    if (!parsed.success) return { content: `invalid arguments for ${toolName}`, isError: true };
    const { pepe } = this.deps;
    try {
      return await tool.execute(parsed.data, {
        agent, agentConfig, chain, sessionId, workspace: cwd, config, env: pepe.env, paths: pepe.paths, slots: pepe.slots, builtins: pepe.builtins,
        signal, emit, markOutsideContent: () => undefined,
      });
    } catch (e) {
      return { content: `${toolName} failed: ${errorMessage(e)}`, isError: true };
    }
  }
}

function logRecord(e: BarrierEvent): LogRecord {
  if (e.type === 'approval_requested') {
    const r = e.request;
    return { kind: 'info', message: 'approval_requested', id: r.id, agent: r.agent, chain: r.chain, tool: r.tool, summary: r.summary };
  }
  return { kind: 'info', message: 'approval_decided', id: e.requestId, agent: e.agent, chain: e.chain, tool: e.tool, allowed: e.allowed, by: e.by, decision: e.decision?.kind ?? null, pendingId: e.pendingId ?? null };
}

function toTurnEvent(e: BarrierEvent): TurnEvent {
  if (e.type === 'approval_requested') {
    const r = e.request;
    return { type: 'approval_requested', path: r.chain, id: r.id, tool: r.tool, arguments: r.args, chain: r.chain, summary: r.summary, reasons: [r.whyText] };
  }
  return {
    type: 'approval_decided',
    path: e.chain,
    id: e.requestId ?? e.pendingId ?? '',
    tool: e.tool,
    allowed: e.allowed,
    by: e.by,
    decision: e.decision?.kind ?? null,
    reason: e.reason ?? null,
  };
}
