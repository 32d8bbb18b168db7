/*
 * The words an agent core's run uses to tell the turn what happened, and how a child agent's
 * pipelines and tools are selected: data only, so the turn's event vocabulary (events.ts) can name
 * them without depending on the cores that produce them.
 */

export const PHASES = ['bootstrap', 'input', 'output'] as const;
export type Phase = (typeof PHASES)[number];

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
