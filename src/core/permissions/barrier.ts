import { randomBytes } from 'node:crypto';
import { errorMessage } from '../errors.js';
import { Decision, type AllowDecision, type ApprovalRequest, type AskReason, type BarrierEvent, type BarrierOutcome, type Prompter, type Withdrawn } from './approval.js';
import type { PendingApprovals } from './pending.js';
import { toolRiskHints, type RiskHint } from './risk.js';
import type { RunPermissionState } from './run-state.js';
import { SessionGrants } from './session-grants.js';
import { describeReasons, summarizeCall } from './summary.js';
import { classifyTool } from './tool-classes.js';

/**
 * The permission barrier (spec 5): decides, for each tool call, whether it runs now, runs after a
 * person says so, or is refused (and, with nobody to ask, parked for later). One barrier serves
 * one session: it holds the session's grants and the surface's prompter. Each run (turn) passes
 * its own RunPermissionState.
 */

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
}

export interface BarrierOptions {
  /** Who to ask. Absent, or not interactive, means nobody is present (spec 5.4). */
  prompter?: Prompter | null;
  /** Writes the tool into the agent's `auto_approve` (the caller goes through the config store). */
  persistAlwaysAllow: (agent: string, tool: string) => Promise<void>;
  /** Where calls refused for want of a person are parked. Without it they are only refused. */
  pending?: PendingApprovals;
  grants?: SessionGrants;
  onEvent?: (event: BarrierEvent) => void;
  sessionId?: string;
  /** Give up on an unanswered prompt after this long (refused as timed out). Default: wait. */
  promptTimeoutMs?: number;
  newId?: () => string;
}

class PromptTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${formatDuration(ms)}`);
    this.name = 'TimeoutError';
  }
}

class PromptCancelled extends Error {}

const NOT_THE_USER = 'this is not a decision by the user';

export class PermissionBarrier {
  readonly grants: SessionGrants;

  constructor(private readonly options: BarrierOptions) {
    this.grants = options.grants ?? new SessionGrants();
  }

  /** A person is present when there is a prompter and it can ask right now. */
  get personPresent(): boolean {
    return !!this.options.prompter && this.options.prompter.interactive;
  }

  async check(call: ToolCallCheck): Promise<BarrierOutcome> {
    const cls = classifyTool(call.tool);
    if (cls.kind === 'free') return { allowed: true, by: 'free' };

    const { agent, tool, args } = call;
    const chain = chainOf(call);
    const person = this.personPresent;
    const hints: RiskHint[] = cls.kind === 'shell' ? toolRiskHints(tool, args) : [];
    // Spec 5.3: outside content withdraws pre-approval for the rest of the run.
    const tainted = call.run.tookInOutsideContent && call.agentConfig.trust_untrusted_content !== true;
    const autoApproved = isAutoApproved(call.agentConfig, tool);
    const riskFreeShell = cls.kind === 'shell' && hints.length === 0;
    const anyGrant = this.grants.hasAny(agent, tool);

    if (riskFreeShell && person && !tainted) return { allowed: true, by: 'free' };
    if (autoApproved && !tainted) return this.decided(call, chain, { allowed: true, by: 'auto_approve' });
    // A person saw and allowed exactly these arguments this session; outside content changes
    // nothing about what they run, so the exact grant stands (the "any arguments" one does not).
    if (this.grants.hasExact(agent, tool, args)) return this.decided(call, chain, { allowed: true, by: 'session_grant', grant: 'exact' });
    if (anyGrant && !tainted) return this.decided(call, chain, { allowed: true, by: 'session_grant', grant: 'any' });

    const why: AskReason[] = [];
    if (cls.kind === 'gated') why.push({ kind: 'gated_tool', known: cls.known });
    if (hints.length > 0) why.push({ kind: 'risk_hints', count: hints.length });
    if (tainted) {
      const withdrew: Withdrawn[] = [];
      if (autoApproved) withdrew.push('auto_approve');
      if (anyGrant) withdrew.push('session_grant');
      if (riskFreeShell && person) withdrew.push('risk_free_shell');
      if (withdrew.length > 0) why.push({ kind: 'outside_content', withdrew, sources: [...call.run.outsideContentSources] });
    }
    if (riskFreeShell && !person) why.push({ kind: 'shell_without_person' });

    const request: ApprovalRequest = {
      id: this.newId(),
      agent,
      chain,
      tool,
      args,
      cwd: call.cwd,
      riskHints: hints,
      summary: summarizeCall(agent, tool, args, call.cwd),
      why,
      whyText: describeReasons(tool, why, hints),
      ...(this.options.sessionId !== undefined ? { sessionId: this.options.sessionId } : {}),
      ...(call.toolCallId !== undefined ? { toolCallId: call.toolCallId } : {}),
      createdAt: new Date().toISOString(),
    };

    if (!person) return this.refuseWithoutPerson(call, request);
    return this.askPerson(call, request);
  }

  // -------------------------------------------------------------------------------------------

  /** Spec 5.4: with nobody to ask, only pre-approved calls run; the rest wait for a person. */
  private async refuseWithoutPerson(call: ToolCallCheck, request: ApprovalRequest): Promise<BarrierOutcome> {
    const parked = await this.park(request, 'no_person');
    const head = `Not run: nobody is present to approve ${request.tool} and it is not pre-approved for ${request.agent} (${NOT_THE_USER}).`;
    return this.decided(call, request.chain, {
      allowed: false,
      by: 'no_person',
      reason: head + parked.note,
      ...(parked.id ? { pendingId: parked.id } : {}),
    });
  }

  private async askPerson(call: ToolCallCheck, request: ApprovalRequest): Promise<BarrierOutcome> {
    this.emit({ type: 'approval_requested', request });
    let decision: Decision;
    try {
      decision = await this.ask(request, call.signal);
    } catch (e) {
      if (e instanceof PromptCancelled) {
        return this.decided(call, request.chain, { allowed: false, by: 'cancelled', reason: 'Not run: the turn was cancelled while waiting for approval.', requestId: request.id }, request.id);
      }
      const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e instanceof PromptTimeout);
      const what = timedOut ? `the approval prompt timed out (${errorMessage(e)})` : `the approval prompt failed (${errorMessage(e)})`;
      const parked = await this.park(request, 'prompt_failed');
      return this.decided(
        call,
        request.chain,
        { allowed: false, by: 'prompt_failed', timedOut, reason: `Not run: ${what}; ${NOT_THE_USER}.${parked.note}`, requestId: request.id, ...(parked.id ? { pendingId: parked.id } : {}) },
        request.id,
      );
    }

    const { agent, tool, args } = call;
    switch (decision.kind) {
      case 'deny': {
        const userReason = decision.reason?.trim() || undefined;
        const reason = `The user denied this call.${userReason ? ` Reason: ${userReason}` : ''}`;
        return this.decided(call, request.chain, { allowed: false, by: 'user', reason, requestId: request.id, ...(userReason ? { userReason } : {}) }, request.id, decision);
      }
      case 'allow_session':
        this.grants.grantExact(agent, tool, args);
        break;
      case 'allow_session_any':
        this.grants.grantAny(agent, tool);
        break;
      case 'always': {
        // The running turn keeps the configuration it started with (spec 2), so the rest of this
        // session is granted in memory too; the persisted auto_approve covers later sessions.
        this.grants.grantAny(agent, tool);
        try {
          await this.options.persistAlwaysAllow(agent, tool);
        } catch (e) {
          const warning = `allowed, but "always" could not be saved: ${errorMessage(e)}`;
          return this.decided(call, request.chain, { allowed: true, by: 'user', decision, requestId: request.id, warning }, request.id, decision);
        }
        break;
      }
      case 'allow_once':
        break;
    }
    return this.decided(call, request.chain, { allowed: true, by: 'user', decision: decision as AllowDecision, requestId: request.id }, request.id, decision);
  }

  /** Runs the prompter with the turn's cancellation and the optional deadline; validates its answer. */
  private async ask(request: ApprovalRequest, signal: AbortSignal | undefined): Promise<Decision> {
    const prompter = this.options.prompter!;
    const controller = new AbortController();
    const cleanups: Array<() => void> = [];
    const stop = new Promise<never>((_, reject) => {
      if (signal) {
        const onAbort = () => {
          controller.abort(signal.reason);
          reject(new PromptCancelled());
        };
        if (signal.aborted) onAbort();
        else {
          signal.addEventListener('abort', onAbort, { once: true });
          cleanups.push(() => signal.removeEventListener('abort', onAbort));
        }
      }
      const ms = this.options.promptTimeoutMs;
      if (ms !== undefined) {
        const timer = setTimeout(() => {
          const err = new PromptTimeout(ms);
          controller.abort(err);
          reject(err);
        }, ms);
        cleanups.push(() => clearTimeout(timer));
      }
    });
    try {
      const answer = await Promise.race([Promise.resolve().then(() => prompter.ask(request, controller.signal)), stop]);
      const parsed = Decision.safeParse(answer);
      if (!parsed.success) throw new Error(`the prompt gave an answer that is not a decision: ${JSON.stringify(answer)}`);
      return parsed.data;
    } catch (e) {
      if (signal?.aborted) throw new PromptCancelled();
      throw e;
    } finally {
      for (const c of cleanups) c();
      stop.catch(() => undefined);
    }
  }

  private async park(request: ApprovalRequest, because: 'no_person' | 'prompt_failed'): Promise<{ id?: string; note: string }> {
    const pending = this.options.pending;
    if (!pending) return { note: '' };
    try {
      const parked = await pending.park({
        id: request.id,
        agent: request.agent,
        chain: request.chain,
        tool: request.tool,
        args: request.args,
        cwd: request.cwd,
        parkedBecause: because,
        summary: request.summary,
        why: request.whyText,
        riskHints: request.riskHints,
        ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
        ...(request.toolCallId !== undefined ? { toolCallId: request.toolCallId } : {}),
      });
      return {
        id: parked.id,
        note: ` It is parked as pending approval ${parked.id} until ${parked.expiresAt}; a person can approve it with \`pepe approvals approve ${parked.id}\`, and its result will come back in a later turn.`,
      };
    } catch (e) {
      return { note: ` (It could not be parked for later: ${errorMessage(e)}.)` };
    }
  }

  private decided<T extends Exclude<BarrierOutcome, { by: 'free' }>>(call: ToolCallCheck, chain: string[], outcome: T, requestId: string | null = null, decision?: Decision): T {
    this.emit({
      type: 'approval_decided',
      requestId,
      agent: call.agent,
      chain,
      tool: call.tool,
      allowed: outcome.allowed,
      by: outcome.by,
      ...(decision ? { decision } : {}),
      ...('reason' in outcome ? { reason: outcome.reason } : {}),
      ...('pendingId' in outcome && outcome.pendingId ? { pendingId: outcome.pendingId } : {}),
    });
    return outcome;
  }

  private emit(event: BarrierEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // A broken listener must not decide a permission.
    }
  }

  private newId(): string {
    return this.options.newId?.() ?? randomBytes(4).toString('hex');
  }
}

export function isAutoApproved(config: BarrierAgentConfig, tool: string): boolean {
  const list = config.auto_approve;
  if (list === undefined) return false;
  if (list === '*') return true;
  return list.includes('*') || list.includes(tool);
}

function chainOf(call: ToolCallCheck): string[] {
  const chain = [...(call.chain ?? [])];
  if (chain[chain.length - 1] !== call.agent) chain.push(call.agent);
  return chain;
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
