import type { Builtins } from './builtin/index.js';
import type { PepeConfig } from '../config/schema.js';
import type { EventSink } from '../events.js';
import type { SandboxRunOptions } from './builtin/sandbox.js';
import type { EventLog } from '../log.js';
import type { Message } from '../messages.js';
import type { PluginRegistry } from '../plugins/registry.js';
import type { ModelRef } from './contracts.js';
import type { SlotName } from './names.js';
import type { SlotScope } from './resolve.js';
import type { Fallback } from './slot-errors.js';

/* What the SlotService (slot-service.ts) is built with, is asked and answers. */

/** Where a slot call tells its surface that it fell back (or refused, or failed the turn). */
export interface SlotEvents {
  emit: EventSink;
  /** The route chain of the agent that made the call. */
  path: string[];
}

/** A command for the sandbox slot; plugins get cwd, env and timeoutMs, the built-in all of it. */
export type SandboxCall = SandboxRunOptions;

export interface CompactRequest {
  messages: Message[];
  model: ModelRef;
  agentConfig: object | null;
  sessionKey: string | null;
  signal?: AbortSignal;
}

/** How one slot call was answered (what `pepe slot test` prints). */
export interface SlotAnswer<T> {
  slot: SlotName;
  /** The configured occupant ("builtin" when none is configured). */
  occupant: string;
  /** Who actually produced `result`. */
  answeredBy: string;
  fallback: Fallback | null;
  durationMs: number;
  result: T;
}

export interface SlotStatus {
  slot: SlotName;
  configured: string | null;
  /** What answers now: the plugin name, or "builtin". */
  occupant: string;
  /** `unconfined`: the built-in sandbox runs commands without OS confinement (reason says why). */
  status: 'ok' | 'default-instead' | 'unconfined';
  reason: string | null;
  scope: SlotScope | null;
  default: 'builtin';
  /**
   * Fallbacks recorded since the slot was last set or cleared. `recovered`: the occupant answered
   * cleanly after the last one (when, in `recoveredAt`).
   */
  fallbacks: FallbackRecord;
  /** What the built-in uses when it answers this row (the web_search backend, the memory files, …); null when a plugin does. */
  uses: string | null;
}

export interface FallbackRecord {
  count: number;
  lastReason: string | null;
  lastAt: string | null;
  recovered: boolean;
  recoveredAt: string | null;
}

/** One slot install-wide, and each project or agent that overrides it (resolved for that scope). */
export type SlotOverview = SlotStatus & { overrides: { scope: 'project' | 'agent'; name: string; status: SlotStatus }[] };

export interface SlotServiceDeps {
  config: () => PepeConfig;
  registry: PluginRegistry;
  log: EventLog;
  /** The built-in occupants the service answers with when no plugin does (or one fails). */
  builtins?: Builtins;
  /** Spend tier per project, for model_select and heartbeat_interval occupants (spec 4.6). */
  usageTiers?: () => Record<string, string>;
  /** The built-in sandbox's confinement, shown as the sandbox row's status when it answers. */
  sandboxStatus?: () => Promise<{ confined: true; backend?: string } | { confined: false; reason: string }>;
}
