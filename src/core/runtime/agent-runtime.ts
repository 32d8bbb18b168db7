import { join, resolve } from 'node:path';
import type { AgentConfig, PepeConfig } from '../config/schema.js';
import { composePrompt, inputMessages, modelHistory, outputMessages, runBootstrap, runInput, runOutput, RUNTIME_RECORD_FIELD, type Sdk, type ToolSelection } from '../cores/index.js';
import { errorMessage, UsageError } from '../errors.js';
import type { EventSink, RunTurnOptions, TurnStatus } from '../events.js';
import type { Message } from '../messages.js';
import { markOutsideContent, newRunState } from '../permissions/run-state.js';
import { PLAN_MODE_SYSTEM_TEXT } from '../permissions/plan-mode.js';
import { type ApprovedCall } from '../permissions/pending.js';
import { canMessage } from '../routing/route-graph.js';
import { routingFor } from '../routing/router.js';
import { MANAGE_ROUTING_SKILL, ROUTING_TOOLS } from '../routing/tools.js';
import { modelRef, staticChain } from '../slots/builtin/model-select.js';
import type { ModelRef } from '../slots/contracts.js';
import { turnCheckpointer } from '../checkpoints/turn-checkpoint.js';
import { withAttachments } from '../context-attachments.js';
import { parseImages, type ImagePart } from '../images.js';
import { withImagesOnLastUser } from './image-gate.js';
import { BUILTIN_TOOLS, ToolRegistry } from '../tools/registry.js';
import { RootRealPaths } from '../tools/paths.js';
import type { Tool, ToolContext, ToolOutcome } from '../tools/tool.js';
import { readSkill } from '../interop/skills.js';
import { forgettingShared, instructionsEvent, interopSystemMessages, turnInterop, withNestedInstructions } from './turn-interop.js';
import { TurnShared } from './turn-shared.js';
import { CoreCache } from './core-cache.js';
import { RuntimeCoreHost } from './core-host.js';
import { carriedFrom, followUpMessage, RAN_SCOPE_PREFIX, toldRan } from './follow-up.js';
import { invokeTool, type InvokeEnv, type ToolCallRequest } from './invoke-tool.js';
import { ConversationTaintKeeper } from './conversation-taint.js';
import { TurnEventRedactor } from '../secrets/redact-events.js';
import { secretValues } from '../secrets/scrub.js';
import { switchNotice } from './turn-helpers.js';
import { runBuiltinLoop } from './turn-loop.js';
import { budgetsFor } from './budget.js';
import { sessionTitle } from '../session-title.js';
import { noSession } from './session-store.js';
import type { PreparedTurn, Replay, TurnOutcome } from './prepared-turn.js';
import type { RuntimeDeps, RuntimeTurnResult } from './runtime-deps.js';
import { SessionBarriers } from './session-barriers.js';
import { randomHex } from '../random-id.js';

export type { RunTurnOptions } from '../events.js';
type JsonValue = Sdk.JsonValue;

const DEFAULT_MAX_STEPS = 50;

/** Spec 7 child agents: 'none' hides every tool; a list narrows the child's configured tools. */
function narrowTools(tools: Tool<any>[], selection: ToolSelection): Tool<any>[] {
  if (selection === 'all') return tools;
  if (selection === 'none') return [];
  // A name the child does not have is a mistake in the calling slot, not something to drop silently.
  const unknown = selection.only.filter((name) => !tools.some((t) => t.name === name));
  if (unknown.length) throw new UsageError(`tools names ${unknown.map((n) => `"${n}"`).join(', ')}, which the child agent does not have (it has: ${tools.map((t) => t.name).join(', ') || 'no tools'})`);
  return tools.filter((t) => selection.only.includes(t.name));
}

/** The raw final answer of a turn whose core decides what is delivered: kept only as a runtime record. */
function asRecord(m: Message): Message {
  return { ...m, [RUNTIME_RECORD_FIELD]: true } as Message;
}

/**
 * Runs turns (spec 4.1) in three steps: `prepare` (agent, session, barrier, tools, parked calls
 * that came back, the model chain), `run` (an agent core's input pipeline, then the harness
 * plugin or the built-in loop, then the output pipeline) and `finish` (turn_end and the result).
 */
export class AgentRuntime {
  readonly tools: ToolRegistry;
  // Agent-core modules run in their own processes (spec 3.3), their console output to the log.
  private readonly cores = new CoreCache(() => ({
    home: this.deps.paths.home,
    env: this.deps.env,
    onOutput: (text) => this.deps.log.write({ kind: 'plugin_output', plugin: 'agent-core', text }),
  }));
  /** One barrier per session: it holds the session's "allow for this session" grants. */
  private readonly barriers: SessionBarriers;

  /** Ends what the runtime started that outlives a turn (agent-core module processes). */
  dispose(): void {
    this.cores.dispose();
    void this.deps.mcp?.dispose();
  }

  constructor(private readonly deps: RuntimeDeps) {
    this.tools = deps.tools ?? new ToolRegistry([...BUILTIN_TOOLS, ...ROUTING_TOOLS]);
    this.barriers = new SessionBarriers(deps);
  }

  async runTurn(opts: RunTurnOptions): Promise<RuntimeTurnResult> {
    const turn = await this.prepare(opts);
    // The turn's task grants are listed (and revocable) while it runs.
    const untrack = this.deps.live?.trackRun(opts.agent, turn.sessionId, turn.run);
    try {
      return await this.runPrepared(turn, opts);
    } finally {
      untrack?.();
    }
  }

  private async runPrepared(turn: PreparedTurn, opts: RunTurnOptions): Promise<RuntimeTurnResult> {
    let models: ModelRef[] = [];
    try {
      models = opts.model ? [modelRef(turn.config, opts.model)] : await this.chainFor(turn);
    } finally {
      turn.emit({ type: 'turn_start', path: turn.chain, agent: opts.agent, sessionId: turn.sessionId, turnId: turn.turnId, model: models[0]?.id ?? null });
      if (turn.run.tookInOutsideContent) turn.emit({ type: 'taint', path: turn.chain, sources: [...turn.run.outsideContentSources] });
      const used = instructionsEvent(turn.chain, turn.interop.files, turn.interop.instructions.leftOut);
      if (used) turn.emit(used);
      if (turn.followUp) turn.emit({ type: 'approval_followup', path: turn.chain, items: turn.followUp });
      for (const message of turn.notices) turn.emit({ type: 'error', path: turn.chain, message, recoverable: true });
    }
    try {
      const outcome = await this.run(turn, models);
      return this.finish(turn, outcome, turn.switchTo());
    } catch (e) {
      const message = errorMessage(e);
      turn.emit({ type: 'error', path: turn.chain, message, recoverable: false });
      return this.finish(turn, { content: '', status: turn.signal.aborted ? 'cancelled' : 'error', error: message, messages: [], coreResult: null }, undefined);
    }
  }

  /** The agent, its session and everything a tool call of this turn goes through. */
  /**
   * Runs a parked call a person just approved, now, exactly as its follow-up would (the tool
   * invoker's replay path, in the call's session and directory), and keeps what happened for that
   * session's next turn, which tells the model once.
   */
  async runApprovedNow(call: ApprovedCall): Promise<ToolOutcome & { ran: boolean }> {
    if (!call.sessionId) throw new UsageError(`the parked call ${call.id} has no session to run in`);
    // Where it was parked, never wherever this host happens to run (`pepe approvals approve` from any directory).
    const { replay } = await this.prepare({ agent: call.agent, text: '', sessionId: call.sessionId, personPresent: false }, { replayOnly: true });
    const result = await replay(call);
    this.deps.sessions.appendState(call.agent, call.sessionId, `${RAN_SCOPE_PREFIX}${call.id}`, toldRan(call, result));
    return result;
  }

  /** With `replayOnly`, only what a parked call's replay needs (no follow-up is taken). */
  private async prepare(opts: RunTurnOptions, prep: { replayOnly: true }): Promise<{ replay: Replay }>;
  private async prepare(opts: RunTurnOptions): Promise<PreparedTurn>;
  private async prepare(opts: RunTurnOptions, prep: { replayOnly?: boolean } = {}): Promise<PreparedTurn | { replay: Replay }> {
    const { sessions } = this.deps;
    const config = this.deps.config();
    const agentConfig = config.agents?.[opts.agent];
    if (!agentConfig) throw new UsageError(`unknown agent "${opts.agent}"; add it with: pepe agent add ${opts.agent} --model mock`);
    const chain = [...(opts.parentChain ?? []), opts.agent];
    let images: ImagePart[];
    try {
      images = parseImages(opts.images ?? []);
    } catch (e) {
      throw new UsageError(errorMessage(e));
    }
    const signal = opts.signal ?? new AbortController().signal;
    // Spec 8: the event stream is masked here, once, for every surface that reads it (known secret
    // values and credential shapes); answer deltas are held back only as long as masking needs.
    // With no one listening (a headless run: a heartbeat, a task), nothing is masked or sent.
    const listener = opts.onEvent;
    const masking = listener ? new TurnEventRedactor(secretValues(this.deps.env, config), listener) : null;
    const emit: EventSink = masking ? (e) => masking.handle(e) : () => undefined;
    const turnId = randomHex(4);

    let sessionId = opts.sessionId;
    if (sessionId && !sessions.exists(opts.agent, sessionId)) throw noSession(opts.agent, sessionId);
    if (!sessionId) {
      const origin = opts.origin ?? (opts.parentChain?.length ? 'routed' : 'user');
      // A person's conversation is titled from its first message until renamed.
      const title = opts.sessionTitle ?? (origin === 'user' && opts.text.trim() ? sessionTitle(opts.text) : undefined);
      sessionId = sessions.create(opts.agent, { origin, ...(title ? { title } : {}) });
    }
    const id = sessionId;
    const session = sessions.load(opts.agent, id);

    const personPresent = (opts.personPresent ?? true) && !!this.deps.prompter?.interactive;
    // Taint follows the data: a run starts with what its conversation kept (spec 5.3, revised) and
    // a routed or child run with its caller's outside content too; what comes in is kept at once.
    const run = newRunState(opts.callerRun ? { taskGrants: [], readOutsideWorkspace: false, ...opts.callerRun } : undefined, session.taint);
    const taint = new ConversationTaintKeeper(sessions, opts.agent, id, run, session.taint, { emit }, chain, () => this.deps.live?.noteTainted(opts.agent, id));
    taint.save();
    // Plan mode (spec 10): the person's choice for this turn, else the agent's default; a caller's is inherited.
    if (opts.callerRun?.planMode || (opts.planMode ?? agentConfig.plan_mode === true)) run.planMode = true;
    const barrier = this.barriers.for(opts.agent, id, personPresent, emit);
    // Discovery shared by the hops of one top-level turn (issue 27): a callee gets its caller's.
    const shared = opts.shared ?? new TurnShared();
    const routing = routingFor(
      { config: () => config, runTurn: (o) => this.runTurn(o), routeAdd: (f, t) => this.deps.routes.add(f, t), routeRemove: (f, t) => this.deps.routes.remove(f, t) },
      { agent: opts.agent, chain, signal, emit, personPresent, permissions: run, shared },
    );
    // MCP tools only where the workspace is trusted (a local server runs code); a server that fails is named, the turn goes on.
    const mcp = this.deps.mcp && this.deps.trusted() ? await this.deps.mcp.toolsFor(agentConfig, signal) : { tools: [], problems: [] };
    const workspace = this.deps.workspace;
    // Instruction files and skills from the workspace only where it is trusted; the person's own skills always.
    const interop = await turnInterop({ workspace, home: this.deps.paths.home, trusted: this.deps.trusted(), agentConfig, config, shared });
    const builtin = this.tools.visibleTo(agentConfig, (name) => name !== 'load_skill' || interop.skills.skills.length > 0);
    const agentTools = forgettingShared(withNestedInstructions([...builtin, ...mcp.tools], interop, workspace, emit, chain), shared);
    const toolContext: ToolContext = {
      agent: opts.agent,
      // The barrier reads auto_approve here: a person's per-server pre-approval of read-only MCP tools joins it.
      agentConfig: this.deps.mcp ? this.deps.mcp.preApproved(agentConfig, mcp.tools) : agentConfig,
      chain,
      sessionId: id,
      workspace,
      config,
      env: this.deps.env,
      paths: this.deps.paths,
      slots: this.deps.slots,
      builtins: this.deps.builtins,
      routing: routing.hooks,
      signal,
      emit,
      markOutsideContent: (source) => {
        markOutsideContent(run, source);
        taint.save();
      },
      outsideContent: () => (run.tookInOutsideContent ? run.outsideContentSources : []),
      workspaceTrusted: this.deps.trusted(),
      skills: interop.skills,
      rootPaths: new RootRealPaths(),
      ...(this.deps.writeFile ? { writeFile: this.deps.writeFile } : {}),
      ...(this.deps.editorFeedback ? { editorFeedback: this.deps.editorFeedback } : {}),
      beforeChange: turnCheckpointer({ pepeHome: this.deps.paths.home, workspace, agent: opts.agent, sessionId: id, turnId, message: opts.text, chain, emit, env: this.deps.env }),
    };
    // Every tool call of this turn (the model's, an agent core's, a parked call's replay) goes through one invoker.
    const hooks = this.deps.hooks?.({ agent: opts.agent, sessionId: id });
    const invokeEnv: InvokeEnv = { context: toolContext, barrier, run, sandbox: () => this.deps.slots.sandboxConfinement(opts.agent), afterCall: () => taint.save(), ...(hooks ? { hooks } : {}) };

    // Parked calls a person resolved since the last turn come back first (spec 5.4), and run
    // only where they were approved.
    const visible = new Map(agentTools.map((t) => [t.name, t]));
    const replay: Replay = async (parked) => {
      // Spec 5.4: in the workspace it was parked in (its writable root), judged again there.
      const workspace = parked.workspace ?? parked.cwd;
      const context: ToolContext = workspace === toolContext.workspace ? toolContext : {
        ...toolContext,
        workspace,
        beforeChange: turnCheckpointer({ pepeHome: this.deps.paths.home, workspace, agent: opts.agent, sessionId: id, turnId, message: opts.text, chain, emit, env: this.deps.env }),
      };
      const approved = { id: parked.id, cwd: parked.cwd, ...(parked.facts ? { facts: parked.facts } : {}), risks: (parked.riskHints ?? []).map((h) => h.kind), programs: parked.programs ?? [] };
      const r = await invokeTool(visible, { id: parked.toolCallId ?? parked.id, name: parked.tool, arguments: parked.args }, { ...invokeEnv, context }, { approved });
      return { ...r, ran: r.stage === 'ran' };
    };
    if (prep.replayOnly) return { replay };
    // Calls approved and run between turns are told once, with the ones resolved since.
    const carried = carriedFrom(session.state);
    const followUp = await followUpMessage(this.deps.pending, this.tools, opts.agent, id, replay, carried.map((c) => c.told));
    for (const c of carried) sessions.appendState(opts.agent, id, c.scope, null);
    return {
      opts,
      config,
      agentConfig,
      chain,
      signal,
      emit,
      turnId,
      sessionId: id,
      session,
      persist: (m) => sessions.appendMessage(opts.agent, id, m, { turnId }),
      personPresent,
      run,
      taint,
      barrier,
      tools: narrowTools(agentTools, opts.child?.tools ?? 'all'),
      toolContext,
      invokeEnv,
      switchTo: () => routing.switchTo(),
      rawText: withAttachments(followUp ? `${followUp.text}\n\n${opts.text}` : opts.text, opts.attachments),
      images,
      followUp: followUp?.items ?? null,
      notices: mcp.problems,
      interop,
    };
  }

  /** The turn's work: an agent core's pipelines around the harness plugin or the built-in loop. */
  private async run(turn: PreparedTurn, models: ModelRef[]): Promise<TurnOutcome> {
    const { opts, agentConfig, chain: path, signal, emit, session, persist, rawText, turnId } = turn;
    const history = session.messages;
    // Spec 7: an agent core shapes the turn before and after the model.
    const core = agentConfig.core ? this.cores.get(resolve(this.deps.paths.home, agentConfig.core), this.deps.trusted()) : null;
    const byName = new Map(turn.tools.map((t) => [t.name, t]));
    const host = core
      ? new RuntimeCoreHost({
          agent: opts.agent, agentConfig, sessionId: turn.sessionId, workspace: this.deps.workspace, chain: path,
          invoke: (call: ToolCallRequest) => invokeTool(byName, call, turn.invokeEnv), sessions: this.deps.sessions,
          sessionState: session.state, coreStateFile: join(this.deps.paths.agents, opts.agent, 'core-state.json'), personPresent: turn.personPresent, signal, emit,
          run: turn.run, runTurn: (o) => this.runTurn(o), log: (r) => this.deps.log.write(r),
          // A child agent that took in outside content hands it back with its answer (spec 5.3).
          markOutsideContent: (source) => turn.toolContext.markOutsideContent(source),
          // ctx.skills.activate sees the same skills as load_skill.
          skill: async (name) => {
            const read = await readSkill(turn.interop.skills, name);
            return read.ok ? read.text : null;
          },
        })
      : null;

    const system = [...this.systemMessages(opts.agent, agentConfig, turn.config, turn.run.planMode === true), ...interopSystemMessages(turn.interop, turn.tools.some((t) => t.name === 'load_skill'))];
    let messages: Message[];
    if (core && host) {
      let bootstrap = (opts.child?.useBootstrap ?? true) ? session.bootstrap : [];
      if (bootstrap === null) {
        // Bootstrap runs once per session; its snapshot is persisted and re-injected every turn.
        bootstrap = (await runBootstrap(core, host, { signal })).texts;
        this.deps.sessions.appendBootstrap(opts.agent, turn.sessionId, bootstrap);
      }
      // ctx.input.attachments: what came with the text, as metadata (the content is in rawText).
      const attachments = (opts.attachments ?? []).map((a) => ({ kind: a.kind, label: a.label, chars: a.content.length }));
      const metadata = { channel: opts.origin ?? (opts.parentChain?.length ? 'routed' : 'user'), ...(opts.metadata ?? {}) };
      const input = await runInput(core, host, { rawText, turnId, history, signal, attachments, metadata, ...(opts.child ? { selection: opts.child.input } : {}) });
      for (const notice of input.notices) emit({ type: 'core', path, event: { type: 'core_notice', slotId: null, text: notice } });
      const withSkills = host.skills.length ? [...system, { role: 'system' as const, content: host.skills.join('\n\n') }] : system;
      // Pictures ride on the turn's last user message, in the prompt and in the stored session.
      messages = withImagesOnLastUser(composePrompt({ system: withSkills, bootstrap: bootstrap ?? [], history, context: input.context }), turn.images);
      for (const m of withImagesOnLastUser(inputMessages(input.context).persist, turn.images)) persist(m);
    } else {
      const userMessage: Message = { role: 'user', content: rawText, ...(turn.images.length ? { images: turn.images } : {}) };
      persist(userMessage);
      messages = [...system, ...modelHistory(history), userMessage];
    }

    let content: string;
    let status: TurnStatus = 'ok';
    let error: string | undefined;
    const harness = this.deps.slots.harnessConfigured(opts.agent);
    if (harness) {
      // Spec 3.3: the harness answers the whole turn, inside the slot guard; its failure is the turn's error.
      const onDelta = (text: string) => emit({ type: 'assistant_delta', path, text });
      const answer = await this.deps.slots.runHarness(opts.agent, agentConfig, messages, { signal, onDelta }, { emit, path });
      content = answer.result.content;
      (core ? (m: Message) => persist(asRecord(m)) : persist)({ role: 'assistant', content });
      emit({ type: 'assistant_message', path, content, toolCalls: [], model: `harness:${harness}` });
    } else {
      if (!models.length) throw new UsageError(`no model configured for agent ${opts.agent}: set "model" for it, or "default_model_chain"`);
      const out = await runBuiltinLoop({
        agent: opts.agent,
        agentConfig,
        config: turn.config,
        chain: path,
        sessionId: turn.sessionId,
        turnId,
        messages,
        models,
        tools: turn.tools,
        barrier: turn.barrier,
        run: turn.run,
        afterMark: () => turn.taint.save(),
        sandbox: turn.invokeEnv.sandbox,
        ...(turn.invokeEnv.hooks ? { hooks: turn.invokeEnv.hooks } : {}),
        toolContext: turn.toolContext,
        slots: this.deps.slots,
        modelDeps: { config: turn.config, env: this.deps.env, usage: this.deps.usage, providerOptions: this.deps.providerOptions, agent: opts.agent, project: agentConfig.project ?? null, sessionId: turn.sessionId, turnId: turn.turnId, budgets: () => budgetsFor(turn.config, agentConfig, agentConfig.project ?? null, turn.sessionId, () => this.deps.usage.all()), providers: new WeakMap() },
        maxSteps: turn.config.limits?.max_steps ?? DEFAULT_MAX_STEPS,
        signal,
        emit,
        persist,
        onCompacted: (all) => this.deps.sessions.appendCompaction(opts.agent, turn.sessionId, all.filter((m) => m.role !== 'system')),
        ...(core ? { recordFinal: asRecord } : {}),
      });
      messages = out.messages;
      ({ content, status, error } = out);
    }

    let coreResult: JsonValue | null = null;
    if (core && host && status !== 'cancelled') {
      const output = await runOutput(core, host, { responseText: content, rawText, turnId, history, signal, ...(opts.child ? { selection: opts.child.output } : {}) });
      for (const m of outputMessages(content, output.sent).persist) persist(m);
      for (const notice of output.notices) emit({ type: 'core', path, event: { type: 'core_notice', slotId: null, text: notice } });
      coreResult = output.result;
      content = output.delivered;
    }
    return { content, status, ...(error ? { error } : {}), messages, coreResult };
  }

  /** turn_end for the surface, and the result for the caller. */
  private finish(turn: PreparedTurn, outcome: TurnOutcome, requested: string | undefined): RuntimeTurnResult {
    turn.taint.save();
    // The target may have been removed while this turn ran: the conversation stays here, and says so.
    let switchTo = requested;
    if (requested && !this.deps.config().agents?.[requested]) {
      switchTo = undefined;
      turn.emit({ type: 'error', path: turn.chain, message: switchNotice(requested, turn.opts.agent), recoverable: true });
    }
    const extra = { ...(outcome.error ? { error: outcome.error } : {}), ...(switchTo ? { switchTo } : {}) };
    const base = { agent: turn.opts.agent, sessionId: turn.sessionId, turnId: turn.turnId, content: outcome.content, status: outcome.status, ...extra };
    turn.emit({ type: 'turn_end', path: turn.chain, ...base });
    return { ...base, tookInOutsideContent: turn.run.tookInOutsideContent, ...(turn.run.planMode ? { planMode: true } : {}), messages: outcome.messages, coreResult: outcome.coreResult };
  }

  private systemMessages(agent: string, agentConfig: AgentConfig, config: PepeConfig, planMode = false): Message[] {
    const parts = [agentConfig.system_prompt ?? `You are ${agent}, an AI agent running in Pepe. Use your tools when they help; answer concisely.`];
    const visible = new Set(this.tools.visibleTo(agentConfig).map((t) => t.name));
    const targets = (agentConfig.can_message ?? []).filter((t) => canMessage(config, agent, t));
    if (visible.has('send_to_agent') && targets.length) parts.push(`You may consult these agents with send_to_agent: ${targets.join(', ')}.`);
    if (visible.has('set_route')) parts.push(MANAGE_ROUTING_SKILL);
    if (planMode) parts.push(PLAN_MODE_SYSTEM_TEXT);
    return [{ role: 'system', content: parts.join('\n\n') }];
  }

  /** Spec 3.3: model_select is asked once per turn, before the chain is walked. */
  private async chainFor(turn: PreparedTurn): Promise<ModelRef[]> {
    const { opts, agentConfig, config, emit, chain } = turn;
    // The built-in reads the configuration this turn started with.
    return (await this.deps.slots.modelChain(opts.agent, agentConfig, { emit, path: chain }, async () => staticChain(config, agentConfig))).result;
  }
}
