import * as z from '../zod.js';
import type { RiskHint, RiskKind } from './risk.js';
import { lazySchema } from '../lazy-schema.js';

/** A person's answer to an approval prompt (spec 5.2). Escape/close in a surface means `deny`. */
export const Decision = lazySchema(() =>
  z.discriminatedUnion('kind', [
    /** This call only. */
    z.object({ kind: z.literal('allow_once') }),
    /** This tool, for calls with no risk beyond those shown, for the rest of this task (the current run). */
    z.object({ kind: z.literal('allow_task') }),
    /** This tool with exactly these arguments, for the rest of the session. */
    z.object({ kind: z.literal('allow_session') }),
    /** This tool, for calls with no risk beyond those shown, for the rest of the session. */
    z.object({ kind: z.literal('allow_session_risks') }),
    /** This tool with any arguments, for the rest of the session (the explicit "any arguments" choice). */
    z.object({ kind: z.literal('allow_session_any') }),
    /** Persisted in the agent's `auto_approve` as the tool with the risks shown (`bash:network`). */
    z.object({ kind: z.literal('always') }),
    /** Persisted in the agent's `auto_approve` as the bare tool name: any arguments (explicit choice). */
    z.object({ kind: z.literal('always_any') }),
    /**
     * Stop asking about this agent's calls for the rest of the session. Catastrophic commands are
     * still refused, writes into Pepe's home still ask, and outside content still withdraws it.
     */
    z.object({ kind: z.literal('bypass_session') }),
    /** The reason, if any, goes back to the model. */
    z.object({ kind: z.literal('deny'), reason: z.optional(z.string()) }),
  ]),
);
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
  | { kind: 'shell_without_person' }
  /** A before-tool hook asked for this call to be confirmed. */
  | { kind: 'hook'; reason: string }
  /** Commands run without confinement right now, so even harmless ones ask. */
  | { kind: 'unconfined'; reason: string }
  /** The call reads (or, for other tools, touches) files outside the workspace. */
  | { kind: 'outside_workspace'; paths: string[] }
  /** The call writes into Pepe's home (configuration, plugins, approvals): always asked, no grant covers it. */
  | { kind: 'pepe_home'; paths: string[] }
  /** An outbound channel (web_search) after the run took in outside content or read outside the workspace. */
  | { kind: 'outbound_after_outside'; sources: string[] }
  /** A file tool changes a file that decides what git, the editor, a shell or npm runs later; `hints` say which and the exact change. */
  | { kind: 'changes_what_runs'; hints: RiskHint[] }
  /**
   * Grants scoped to risks cannot cover this call (it runs a program through an option, a hook or
   * a variable, or changes what runs later): only this exact call, or (when `anyArguments`) the
   * tool with any arguments.
   */
  | { kind: 'narrow_grants'; anyArguments: boolean };

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
  /** The risk kinds shown: what a grant given on this prompt covers. */
  risks: RiskKind[];
  /** The programs the command runs by name: a grant covering an unknown program covers only these. */
  programs?: string[];
  /** Grants other than "once" cannot cover this call (a write into Pepe's home): only offer allow_once and deny. */
  onceOnly?: boolean;
  /**
   * Which grants can cover this call at all: 'exact' (a change to a file that decides what runs
   * later: once, or this exact call for the session) or 'exact_or_any' (a program run through an
   * option, hook or variable: also the tool with any arguments). Absent: every grant. A wider
   * answer is recorded as the narrowest grant that applies, and the outcome says so.
   */
  narrowest?: 'exact' | 'exact_or_any';
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

/**
 * Every allowed outcome carries `risks`: the risk kinds of the call, which were shown to and
 * approved by a person or covered by a grant for them (`[]` when the call carries none). The tool
 * invoker gives the call the network only when `risks` includes "network".
 */
export type BarrierOutcome =
  | { allowed: true; by: 'free'; risks: RiskKind[] }
  | { allowed: true; by: 'auto_approve'; risks: RiskKind[]; entry: string }
  | { allowed: true; by: 'session_grant'; grant: 'exact' | 'any' | 'risks'; risks: RiskKind[] }
  | { allowed: true; by: 'task_grant'; risks: RiskKind[] }
  | { allowed: true; by: 'bypass'; risks: RiskKind[] }
  /** `warning` is set when "always" was chosen but could not be saved. */
  | { allowed: true; by: 'user'; decision: AllowDecision; requestId: string; risks: RiskKind[]; warning?: string }
  /** Never runs, whatever was pre-approved (catastrophic.ts). */
  | { allowed: false; by: 'catastrophic'; reason: string }
  /** Plan mode is on and the call does more than read (plan-mode.ts): refused, nobody asked. */
  | { allowed: false; by: 'plan_mode'; reason: string }
  /** The barrier itself failed: refused, never thrown. */
  | { allowed: false; by: 'barrier_error'; reason: string }
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
