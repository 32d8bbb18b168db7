import type { SentText } from './items.js';
import type { ChildAgentResult, HistoryPolicy, JsonValue, SpawnedAgent, ToolResult } from './sdk-types.js';
import type { Phase } from './pipelines.js';

/**
 * Which slots of a child agent's core run (spec 7, child agents), computed from the caller's
 * `inputSlots` / `outputSlots`:
 * - `'base'`: only `base_input` / `base_output` (the option was omitted, null or []);
 * - `'all'`: the child core's full configured pipeline;
 * - a list: the child's active pipeline filtered to these ids, keeping order and groups.
 */
export type PipelineSelection = 'base' | 'all' | { only: string[] };

/** Which tools a child agent sees: its configured ones, none, or only these (intersected with its configured ones). */
export type ToolSelection = 'all' | 'none' | { only: string[] };

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

/** Things a run tells the surface as they happen. */
export type CoreEvent =
  | { type: 'core_progress'; slotId: string; text: string }
  | { type: 'core_notice'; slotId: string | null; text: string }
  | {
      type: 'core_slot_failed';
      phase: Phase;
      slotId: string;
      policy: 'soft' | 'hard';
      message: string;
      timedOut: boolean;
      /** The slot's module and, when the error says, the line in it. */
      file?: string;
      line?: number;
    }
  | { type: 'core_restricted'; reason: string }
  /** An input slot's ctx.input.sendText: shown before the answer, never history. */
  | { type: 'core_sent'; phase: Phase; slotId: string; text: string; visible: boolean }
  /** A slot returned a value: return values are never a way to act (use the ctx clients). */
  | { type: 'core_return_ignored'; phase: Phase; slotId: string; valueType: string }
  /** A child agent a slot spawned: 'running' when started, then how it ended (the parent is notified). */
  | { type: 'core_task'; taskId: string; agent: string; status: string; sessionId?: string; error?: string };

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

export type { ChildAgentResult, HistoryPolicy, SpawnedAgent, ToolResult };
