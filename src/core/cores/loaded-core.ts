import type { SlotManifest } from './manifest.js';
import type { Phase, Pipelines } from './pipelines.js';
import type { SlotContext } from './sdk-types.js';

/** A slot ready to run. */
export interface LoadedSlot {
  id: string;
  phase: Phase;
  /** Absolute path of the slot folder (for a built-in: where it would be). */
  dir: string;
  /** Absolute path of its slot.yaml (named in capability errors). */
  manifestFile: string;
  manifest: SlotManifest;
  /** Absolute path of the module the entrypoint names; null for a built-in. */
  moduleFile: string | null;
  /** The entrypoint function. */
  entry: (ctx: SlotContext) => unknown;
  /** True for Pepe's own base_input/base_output (restricted mode, or a child core without them). */
  builtin: boolean;
  /** The slot folder relative to the core folder (`agent/input/x`), as slots see it in ctx.slotPath. */
  slotPath?: string;
  /** Every capability the slot holds: its slot.yaml's plus the core's agent.yaml grants (defaults, this slot's path). */
  grants?: string[];
}

export interface LoadedCore {
  /** Absolute path of the core folder. */
  dir: string;
  /** Absolute path of its authored surface (`<dir>/agent`). */
  surfaceRoot: string;
  pipelines: Pipelines;
  slots: Record<Phase, Map<string, LoadedSlot>>;
  /**
   * Why the core's own modules do not run (an untrusted workspace), or null. A restricted core
   * runs Pepe's built-in base_input/base_output only.
   */
  restricted: string | null;
  /** A fingerprint of the core's files as loaded (ctx.coreRevision). */
  revision?: string;
  /** The core's own skills (`agent/skills/<name>/SKILL.md`): name → text. */
  skills?: Record<string, string>;
  /** Ends the process the core's modules run in, when they run out of process. */
  dispose?: () => void;
}

/** What an out-of-process slot returned, as far as the runner needs it (it says the value was ignored). */
export class RemoteReturn {
  constructor(readonly valueType: string) {}
}
