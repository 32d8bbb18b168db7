import type { SentText } from './items.js';
import type { ChildAgentResult, HistoryPolicy, JsonValue, SpawnedAgent, ToolResult } from './sdk-types.js';
import type { CoreEvent, Phase, PipelineSelection, ToolSelection } from '../core-events.js';

/** What a slot's `ctx.agents.run/spawn` asks the host for; validated and normalised. */
export interface ChildAgentRequest {
  agent: string;
  text: string;
  input: PipelineSelection;
  output: PipelineSelection;
  tools: ToolSelection;
  /** False: run no bootstrap slots and inject no bootstrap snapshot in the child's turn. */
  useBootstrap: boolean;
  /** Extra texts for the child's prompt (the `context` option), as system context of its turn. */
  context: string[];
  /** Who asked: for the route chain, the events and the log. */
  caller: SlotRef;
}

export interface SlotRef {
  phase: Phase;
  slotId: string;
}

export type StateScope = 'session' | 'core';

/**
 * What the runtime provides to a core's pipeline run. Every effect a slot has on the world goes
 * through here, so the host applies its own rules (visible tools, the permission barrier, routes,
 * the workspace scope, persistence).
 */
export interface CoreHost {
  readonly agent: string;
  readonly sessionId: string;
  readonly workspace: string;
  /** When this turn is a slot's child agent: the caller's `context` texts, added to the prompt as system context. */
  readonly extraContext?: readonly string[];
  /** Told what the output pipeline delivered (a child's caller gets it in ChildAgentResult.deliveries). */
  outputDone?(sent: readonly SentText[]): void;
  /**
   * Runs one of the agent's tools for a slot: only a tool visible to the agent, validated against
   * its schema, through the permission barrier exactly like a model's call (chain = the agent's
   * route chain). Refusals and failures come back as `{isError: true}`, not as throws.
   */
  callTool(name: string, args: Record<string, unknown>, caller: SlotRef): Promise<ToolResult>;
  /** Runs a child agent's turn with the given pipeline, tool and bootstrap selections, and waits. */
  runAgent(request: ChildAgentRequest, signal: AbortSignal): Promise<ChildAgentResult>;
  /** Starts a child agent's turn in the background (an agent.spawn task) and returns at once. */
  spawnAgent(request: ChildAgentRequest): SpawnedAgent;
  /**
   * Activates a skill for the current turn (adds its prompt snippet). `text` is the core's own
   * skill of that name, when it has one. Resolves false for a skill nobody knows (the slot is told
   * with a notice and goes on).
   */
  activateSkill(name: string, caller: SlotRef, text?: string): Promise<boolean | void>;
  /** The stored state of a scope ({} when none); called at most once per scope per phase run. */
  loadState(scope: StateScope): Promise<Record<string, JsonValue>>;
  /** Stores the whole state of a scope (called after each change, in order). */
  persistState(scope: StateScope, value: Record<string, JsonValue>): Promise<void>;
  /** Progress, notices and soft failures as they happen. */
  emit(event: CoreEvent): void;
}

export type { ChildAgentResult, CoreEvent, HistoryPolicy, PipelineSelection, SpawnedAgent, ToolResult, ToolSelection };
