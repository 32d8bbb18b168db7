import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { ChildAgentRequest, CoreEvent, CoreHost, SlotRef, StateScope } from '../cores/index.js';
import type { Sdk } from '../cores/index.js';
import { MANAGE_ROUTING_SKILL } from '../routing/tools.js';
import type { ToolContext } from '../tools/tool.js';
import type { InvokeResult, ToolCallRequest } from './invoke-tool.js';
import type { EventSink, RunTurnOptions, TurnResult } from '../events.js';
import type { SessionStore } from './session-store.js';

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

  constructor(private readonly deps: RuntimeCoreHostDeps) {
    this.agent = deps.agent;
    this.sessionId = deps.sessionId;
    this.workspace = deps.workspace;
  }

  async callTool(name: string, args: Record<string, unknown>, caller: SlotRef): Promise<Sdk.ToolResult> {
    // Validate, resolve, barrier, execute: exactly as for a tool call from the model.
    const r = await this.deps.invoke({ id: `core:${caller.phase}:${caller.slotId}`, name, arguments: args });
    if (r.stage === 'unknown_tool') return { content: `tool "${name}" is not available to ${this.agent}`, isError: true };
    return { content: r.content, isError: r.isError };
  }

  private child(request: ChildAgentRequest, signal: AbortSignal): Promise<Sdk.ChildAgentResult> {
    return this.deps
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
      .then((r) => ({ agent: r.agent, sessionId: r.sessionId, content: r.content, status: r.status, result: r.coreResult ?? null, ...(r.error ? { error: r.error } : {}) }));
  }

  runAgent(request: ChildAgentRequest, signal: AbortSignal): Promise<Sdk.ChildAgentResult> {
    return this.child(request, signal);
  }

  spawnAgent(request: ChildAgentRequest): Sdk.SpawnedAgent {
    // A spawned child outlives the slot, not the turn: it is cancelled with the turn.
    const done = this.child(request, this.deps.signal);
    done.catch(() => undefined);
    return { taskId: randomBytes(4).toString('hex'), agent: request.agent, wait: () => done };
  }

  async activateSkill(name: string): Promise<void> {
    const text = SKILLS[name];
    if (!text) throw new Error(`unknown skill "${name}"; known skills: ${Object.keys(SKILLS).join(', ')}`);
    if (!this.skills.includes(text)) this.skills.push(text);
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
  }
}
