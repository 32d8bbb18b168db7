import type { BarrierEvent, Prompter } from './approval.js';
import type { CatastropheContext } from './catastrophic.js';
import type { PendingApprovals } from './pending.js';
import type { RiskKind } from './risk.js';
import type { RunPermissionState } from './run-state.js';
import type { SessionGrants } from './session-grants.js';

/** What the permission barrier (barrier.ts) is asked about a call, and what it is built with. */

/** The two agent settings the barrier reads (spec 2). */
export interface BarrierAgentConfig {
  auto_approve?: '*' | readonly string[];
  trust_untrusted_content?: boolean;
}

export interface ToolCallCheck {
  agent: string;
  agentConfig: BarrierAgentConfig;
  /** The route chain that led to `agent` (`['triage', 'billing']`); `agent` is appended if missing. */
  chain?: readonly string[];
  tool: string;
  args: unknown;
  cwd: string;
  run: RunPermissionState;
  toolCallId?: string;
  /** The turn's cancellation (the user pressed Stop). */
  signal?: AbortSignal;
  /** What the tool invoker resolved before asking: real paths touched (spec 5.1, file tools). */
  facts?: import('../tools/tool.js').ToolFacts;
  /** Whether the sandbox confines commands now; unconfined means every command is asked (spec 3.5). */
  sandbox?: { confined: boolean; reason?: string };
  /** The workspace the call runs against (its writable root), recorded with a parked call (spec 5.4). */
  workspace?: string;
  /**
   * The replay of a parked call a person approved: judged again now, it runs only if it still
   * carries no risk and no program beyond those they were shown; anything new is asked again.
   */
  approved?: { id: string; risks: readonly RiskKind[]; programs: readonly string[] };
  /** A before-tool hook asked for this call (issue 24): nothing allows it unasked. */
  hookAsk?: string;
}

export interface BarrierOptions {
  /** Who to ask. Absent, or not interactive, means nobody is present (spec 5.4). */
  prompter?: Prompter | null;
  /**
   * Writes an entry into the agent's `auto_approve` (the caller goes through the config store):
   * the tool with the risks shown (`bash:network`), or the bare name for "always, any arguments".
   */
  persistAlwaysAllow: (agent: string, entry: string) => Promise<void>;
  /** Where calls refused for want of a person are parked. Without it they are only refused. */
  pending?: PendingApprovals;
  grants?: SessionGrants;
  onEvent?: (event: BarrierEvent) => void;
  sessionId?: string;
  /** Give up on an unanswered prompt after this long (refused as timed out). Default: wait. */
  promptTimeoutMs?: number;
  newId?: () => string;
  /** Pepe's home and the user's home, for the commands that are never run. Default: from the environment. */
  catastrophes?: CatastropheContext;
  /**
   * Grants as they stand on disk now (issue 25): revocations written by any process are applied
   * before each call, and a saved entry the turn started with counts only while it is still saved.
   */
  live?: BarrierLiveGrants;
}

export interface BarrierLiveGrants {
  /** Takes away what was revoked (the session's grants, the run's task grants) before a call is judged. */
  enforce(sessionId: string | undefined, grants: SessionGrants, run: RunPermissionState): void;
  /** Whether `entry` of the agent's auto_approve is still saved now (false: the call is asked). */
  savedStands(agent: string, entry: string): boolean;
  /** A task grant was added to a run. */
  changed(): void;
}
