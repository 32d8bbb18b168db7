import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { ChildAgentRequest, CoreEvent, CoreHost, SentText, SlotRef, StateScope } from '../cores/index.js';
import type { Sdk } from '../cores/index.js';
import { MANAGE_ROUTING_SKILL } from '../routing/tools.js';
import type { ToolContext } from '../tools/tool.js';
import type { InvokeResult, ToolCallRequest } from './invoke-tool.js';
import type { EventSink, RunTurnOptions, TurnResult } from '../events.js';
import type { SessionStore } from './session-store.js';
import type { LogRecord } from '../log.js';
import { randomHex } from '../random-id.js';

/** How deep child agents of agent cores may nest (a child's child's … child), counting from the first caller. */
export const MAX_DELEGATION_DEPTH = 5;

/**
 * What a child turn started by a slot inherits from its caller, carried in the async context of
 * the child's run (the child's RuntimeCoreHost is built inside it): the delegation stack for the
 * depth limit and the cycle check, the `context` option's texts for its prompt, and a place for
 * the child's output pipeline to leave what it delivered.
 */
interface DelegationFrame {
  /** `agent/phase/slot` of every slot that delegated on the way here, outermost first. */
  stack: string[];
  context: string[];
  delivered?: SentText[];
  /** Set once the child's own host took the frame (a later host in the same run is not the child). */
  taken?: boolean;
}
const delegation = new AsyncLocalStorage<DelegationFrame>();

/** Skills an agent core may activate for a turn (spec 7, `ctx.skills.activate`). */
export const SKILLS: Record<string, string> = { 'manage-routing': MANAGE_ROUTING_SKILL };

export interface RuntimeCoreHostDeps {
  agent: string;
  agentConfig: ToolContext['agentConfig'];
  sessionId: string;
  workspace: string;
  chain: string[];
  /** The turn's tool invoker over the agent's visible tools (the same one the built-in loop uses). */
  invoke: (call: ToolCallRequest) => Promise<InvokeResult>;
  sessions: SessionStore;
  sessionState: Record<string, unknown>;
  coreStateFile: string;
  personPresent: boolean;
  signal: AbortSignal;
  emit: EventSink;
  /** The turn's taint, handed to child agents (taint follows the data). */
  run?: RunTurnOptions['callerRun'];
  runTurn: (opts: RunTurnOptions) => Promise<TurnResult & { coreResult?: Sdk.JsonValue | null }>;
  /** Pepe's log: soft slot failures, notices and ignored return values are written there too. */
  log?: (record: LogRecord) => void;
  /** Marks the turn (and its conversation) as holding outside content: a child agent's answer that carries it. */
  markOutsideContent?: (source: string) => void;
  /** A skill of the turn's catalog (the person's and the workspace's, as load_skill sees them): its text, or null. */
  skill?: (name: string) => Promise<string | null>;
}

/**
 * What a turn gives an agent core's slots (spec 7): every effect goes through the runtime's own
 * rules — visible tools only, the permission barrier with the agent's chain, routes for child
 * agents' events, persistence in the session — so a declared capability never bypasses them.
 */
export class RuntimeCoreHost implements CoreHost {
  readonly agent: string;
  readonly sessionId: string;
  readonly workspace: string;
  /** Skill texts activated this turn, added to the system prompt. */
  readonly skills: string[] = [];
  /** The caller's `context` texts, when this turn is a slot's child agent (read by the input pipeline). */
  readonly extraContext: readonly string[];
  private readonly frame: DelegationFrame | undefined;

  constructor(private readonly deps: RuntimeCoreHostDeps) {
    this.agent = deps.agent;
    this.sessionId = deps.sessionId;
    this.workspace = deps.workspace;
    // Built inside the child's run when a slot started it: take what the caller handed down.
    const frame = delegation.getStore();
    this.frame = frame && frame.delivered === undefined && !frame.taken ? frame : undefined;
    if (this.frame) this.frame.taken = true;
    this.extraContext = this.frame?.context ?? [];
  }

  /** The output pipeline's deliveries, for the caller's ChildAgentResult. */
  outputDone(sent: readonly SentText[]): void {
    if (this.frame) this.frame.delivered = [...sent];
  }

  async callTool(name: string, args: Record<string, unknown>, caller: SlotRef): Promise<Sdk.ToolResult> {
    // Validate, resolve, barrier, execute: exactly as for a tool call from the model.
    const r = await this.deps.invoke({ id: `core:${caller.phase}:${caller.slotId}`, name, arguments: args });
    if (r.stage === 'unknown_tool') return { content: `tool "${name}" is not available to ${this.agent}`, isError: true };
    return { content: r.content, isError: r.isError };
  }

  /**
   * Refuses a delegation that would nest too deep or come back to a slot already delegating (a
   * slot that runs its own agent with its full pipeline would otherwise run itself forever).
   */
  private delegationStack(request: ChildAgentRequest): string[] {
    const stack = this.frame?.stack ?? [];
    const me = `${this.agent}/${request.caller.phase}/${request.caller.slotId}`;
    if (stack.includes(me)) {
      throw new Error(
        `refused: ${request.caller.phase} slot "${request.caller.slotId}" of ${this.agent} is already delegating in this chain (${[...stack, me].join(' → ')}); running "${request.agent}" again would be a cycle. Narrow the child's pipeline (inputSlots/outputSlots) so it does not run this slot.`,
      );
    }
    if (stack.length >= MAX_DELEGATION_DEPTH) {
      throw new Error(`refused: child agents may nest ${MAX_DELEGATION_DEPTH} deep at most (${[...stack, me].join(' → ')})`);
    }
    return [...stack, me];
  }

  private child(request: ChildAgentRequest, signal: AbortSignal): Promise<Sdk.ChildAgentResult> {
    const frame: DelegationFrame = { stack: this.delegationStack(request), context: request.context };
    return delegation.run(frame, () => this.deps
      .runTurn({
        agent: request.agent,
        text: request.text,
        parentChain: this.deps.chain,
        signal,
        onEvent: this.deps.emit,
        personPresent: this.deps.personPresent,
        origin: 'child',
        ...(this.deps.run ? { callerRun: this.deps.run } : {}),
        sessionTitle: `child of ${this.deps.chain.join(' → ')} (${request.caller.phase}/${request.caller.slotId})`,
        child: { input: request.input, output: request.output, tools: request.tools, useBootstrap: request.useBootstrap },
      })
      .then((r): Sdk.ChildAgentResult => {
        // Taint flows back with the answer, whatever became of the child (spec 5.3).
        if (r.tookInOutsideContent) this.deps.markOutsideContent?.(`child agent ${r.agent}`);
        // A child that failed raises in its caller (the slot's try/catch sees it).
        if (r.status === 'error' || r.status === 'cancelled') throw new Error(`child agent ${r.agent} ${r.status === 'cancelled' ? 'was cancelled' : 'failed'}${r.error ? `: ${r.error}` : ''}`);
        const tools = r.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.name) : []));
        return {
          agent: r.agent,
          sessionId: r.sessionId,
          turnId: r.turnId,
          content: r.content,
          status: r.status,
          result: r.coreResult ?? null,
          deliveries: (frame.delivered ?? (r.content ? [{ text: r.content, visible: true, historyPolicy: 'persist' as const }] : [])).map((d) => ({ text: d.text, visible: d.visible, historyPolicy: d.historyPolicy })),
          tools,
          metadata: { caller: `${request.caller.phase}/${request.caller.slotId}`, depth: frame.stack.length },
        };
      }));
  }

  runAgent(request: ChildAgentRequest, signal: AbortSignal): Promise<Sdk.ChildAgentResult> {
    return this.child(request, signal);
  }

  spawnAgent(request: ChildAgentRequest): Sdk.SpawnedAgent {
    const taskId = randomHex(4);
    const record = (status: string, extra: Record<string, unknown> = {}) =>
      this.deps.sessions.appendState(this.agent, this.sessionId, 'core_task', { taskId, kind: 'agent.spawn', agent: request.agent, caller: `${request.caller.phase}/${request.caller.slotId}`, status, ...extra });
    // A spawned child outlives the slot, not the turn: it is cancelled with the turn.
    const done = this.child(request, this.deps.signal);
    record('running');
    this.emit({ type: 'core_task', taskId, agent: request.agent, status: 'running' });
    done.then(
      (r) => {
        record(r.status, { sessionId: r.sessionId, turnId: r.turnId });
        this.emit({ type: 'core_task', taskId, agent: request.agent, status: r.status, sessionId: r.sessionId });
      },
      (e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        record('error', { error: message });
        this.emit({ type: 'core_task', taskId, agent: request.agent, status: 'error', error: message });
      },
    );
    return { taskId, agent: request.agent, status: 'running', wait: () => done };
  }

  async activateSkill(name: string, _caller?: SlotRef, coreText?: string): Promise<boolean> {
    const text = coreText ?? SKILLS[name] ?? (await this.deps.skill?.(name)) ?? undefined;
    if (!text) return false;
    if (!this.skills.includes(text)) this.skills.push(text);
    return true;
  }

  async loadState(scope: StateScope): Promise<Record<string, Sdk.JsonValue>> {
    if (scope === 'session') return (this.deps.sessionState.core_session as Record<string, Sdk.JsonValue>) ?? {};
    try {
      return JSON.parse(readFileSync(this.deps.coreStateFile, 'utf8')) as Record<string, Sdk.JsonValue>;
    } catch {
      return {};
    }
  }

  async persistState(scope: StateScope, value: Record<string, Sdk.JsonValue>): Promise<void> {
    if (scope === 'session') {
      this.deps.sessionState.core_session = value;
      this.deps.sessions.appendState(this.agent, this.sessionId, 'core_session', value);
      return;
    }
    await mkdir(dirname(this.deps.coreStateFile), { recursive: true });
    await writeFileAtomic(this.deps.coreStateFile, JSON.stringify(value, null, 2));
  }

  emit(event: CoreEvent): void {
    this.deps.emit({ type: 'core', path: this.deps.chain, event });
    // What a surface shows is also in the log, with where in the module a failure came from.
    if (event.type === 'core_progress' || event.type === 'core_sent') return;
    const { type, ...rest } = event as CoreEvent & { message?: string };
    const { message: detail, ...fields } = rest as { message?: string };
    this.deps.log?.({ kind: 'info', ...fields, ...(detail !== undefined ? { detail } : {}), message: type, agent: this.agent, chain: this.deps.chain, sessionId: this.sessionId });
  }
}
