import { z } from 'zod';
import type { RiskHint } from './risk.js';

/** A person's answer to an approval prompt (spec 5.2). Escape/close in a surface means `deny`. */
export const Decision = z.discriminatedUnion('kind', [
  /** This call only. */
  z.object({ kind: z.literal('allow_once') }),
  /** This tool with exactly these arguments, for the rest of the session. */
  z.object({ kind: z.literal('allow_session') }),
  /** This tool with any arguments, for the rest of the session. */
  z.object({ kind: z.literal('allow_session_any') }),
  /** Persisted in the agent's `auto_approve`. */
  z.object({ kind: z.literal('always') }),
  /** The reason, if any, goes back to the model. */
  z.object({ kind: z.literal('deny'), reason: z.string().optional() }),
]);
export type Decision = z.infer<typeof Decision>;
export type AllowDecision = Exclude<Decision, { kind: 'deny' }>;

/** What pre-approval outside content took away (spec 5.3). */
export type Withdrawn = 'auto_approve' | 'session_grant' | 'risk_free_shell';

/** Why the barrier is asking; a request carries every reason that applies. */
export type AskReason =
  /** write_file, switch_agent, set_route (known) or a plugin/unknown tool (not known). */
  | { kind: 'gated_tool'; known: boolean }
  /** A shell call that tripped risk hints (listed on the request). */
  | { kind: 'risk_hints'; count: number }
  /** Outside content entered the run and withdrew these paths. */
  | { kind: 'outside_content'; withdrew: Withdrawn[]; sources: string[] }
  /** A harmless shell call runs unasked only while a person watches (spec 5.1). */
  | { kind: 'shell_without_person' };

export interface ApprovalRequest {
  /** 8 hex characters; also the pending approval's id when the call gets parked. */
  id: string;
  agent: string;
  /** The route chain that led here, ending with `agent` (`['triage', 'billing']`). */
  chain: string[];
  tool: string;
  /** Exactly what the model passed. */
  args: unknown;
  cwd: string;
  riskHints: RiskHint[];
  /** What will happen, for a person (for bash: the command line and the working directory). */
  summary: string;
  why: AskReason[];
  /** `why` in words. */
  whyText: string;
  sessionId?: string;
  toolCallId?: string;
  createdAt: string;
}

/**
 * The surface's way to ask a person (CLI: a TTY prompt; VS Code: a modal dialog). A prompter
 * that is not interactive counts as nobody there (spec 5.4). `ask` may reject (or honour the
 * signal); the barrier reports that as a failed prompt, never as the user's answer.
 */
export interface Prompter {
  readonly interactive: boolean;
  ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision>;
}

export type BarrierOutcome =
  | { allowed: true; by: 'free' }
  | { allowed: true; by: 'auto_approve' }
  | { allowed: true; by: 'session_grant'; grant: 'exact' | 'any' }
  /** `warning` is set when "always" was chosen but could not be saved. */
  | { allowed: true; by: 'user'; decision: AllowDecision; requestId: string; warning?: string }
  /** `reason` is the text for the model; `userReason` what the person typed, if anything. */
  | { allowed: false; by: 'user'; reason: string; userReason?: string; requestId: string }
  | { allowed: false; by: 'no_person'; reason: string; pendingId?: string }
  | { allowed: false; by: 'prompt_failed'; reason: string; timedOut: boolean; requestId: string; pendingId?: string }
  | { allowed: false; by: 'cancelled'; reason: string; requestId: string };

export type DecidedBy = Exclude<BarrierOutcome['by'], 'free'>;

export type BarrierEvent =
  | { type: 'approval_requested'; request: ApprovalRequest }
  | {
      type: 'approval_decided';
      /** Null when nobody was asked (pre-approved, or nobody present). */
      requestId: string | null;
      agent: string;
      chain: string[];
      tool: string;
      allowed: boolean;
      by: DecidedBy;
      decision?: Decision;
      reason?: string;
      pendingId?: string;
    };
