import { errorMessage } from '../errors.js';
import { Decision, type AllowDecision, type ApprovalRequest, type AskReason, type BarrierEvent, type BarrierOutcome, type Withdrawn } from './approval.js';
import { classifyLoadingGrammar } from './bash-grammar.js';
import { defaultCatastropheContext, type CatastropheContext } from './catastrophic.js';
import { visible } from '../display.js';
import { controlFileHints } from './control-files.js';
import { riskKindsOf, scopeCovers, scopedEntry } from './grant-scope.js';
import { anyArgumentsMayCover, scopedGrantMayCover } from './risk-kinds.js';
import type { BarrierOptions, ToolCallCheck } from './barrier-types.js';
import { autoApproveEntry, chainOf, formatDuration, isFileReadOutside, narrowDecision, noteSecretFiles, withRepositoryConfig } from './barrier-rules.js';
import { classifyToolCall, type RiskHint, type ShellVerdict } from './risk.js';
import { SessionGrants } from './session-grants.js';
import { describeReasons, summarizeCall } from './summary.js';
import { classifyTool } from './tool-classes.js';
import { planModeRefusal } from './plan-mode.js';
import { randomHex } from '../random-id.js';

/**
 * The permission barrier (spec 5): decides, for each tool call, whether it runs now, runs after a
 * person says so, or is refused (and, with nobody to ask, parked for later). One barrier serves
 * one session: it holds the session's grants and the surface's prompter. Each run (turn) passes
 * its own RunPermissionState.
 */

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

  private readonly catastrophes: CatastropheContext;

  constructor(private readonly options: BarrierOptions) {
    this.grants = options.grants ?? new SessionGrants();
    this.catastrophes = options.catastrophes ?? defaultCatastropheContext();
  }

  /** A person is present when there is a prompter and it can ask right now. */
  get personPresent(): boolean {
    return !!this.options.prompter && this.options.prompter.interactive;
  }

  /** Every call gets an outcome: a failure inside the barrier is a refusal, never a thrown error. */
  async check(call: ToolCallCheck): Promise<BarrierOutcome> {
    try {
      const outcome = await this.judge(call);
      if (outcome.allowed) noteSecretFiles(call);
      return outcome;
    } catch (e) {
      const reason = `Not run: the permission barrier could not judge this call (${visible(errorMessage(e))}); ${NOT_THE_USER}.`;
      return this.decided(call, chainOf(call), { allowed: false, by: 'barrier_error', reason });
    }
  }

  private async judge(call: ToolCallCheck): Promise<BarrierOutcome> {
    const live = this.options.live;
    live?.enforce(this.options.sessionId, this.grants, call.run);
    const cls = classifyTool(call.tool);
    const { agent, tool, args } = call;
    const chain = chainOf(call);
    const person = this.personPresent;
    const paths = call.facts?.paths ?? [];
    const outside = paths.filter((p) => !p.inside);
    const pepeHome = paths.filter((p) => p.access === 'write' && p.inPepeHome);
    const isFileRead = tool === 'read_file' || tool === 'list_dir';
    const tainted = call.run.tookInOutsideContent && call.agentConfig.trust_untrusted_content !== true;
    const outbound = tool === 'web_search' && (call.run.tookInOutsideContent || call.run.readOutsideWorkspace === true || (call.run.secretFiles?.length ?? 0) > 0);

    // What the call may do: the shell reading, plus what the resolved paths say.
    let verdict: ShellVerdict = { hints: [], catastrophic: [] };
    if (cls.kind === 'shell') {
      verdict = await classifyLoadingGrammar(() => classifyToolCall(tool, args, this.catastrophes));
      verdict = withRepositoryConfig(verdict, call.facts?.cwd ?? call.cwd);
    }
    if (verdict.catastrophic.length > 0) {
      const reason = `Refused: ${verdict.catastrophic.map(visible).join('; ')}. This is never run by an agent, whatever was approved; a person who means it runs it in their own terminal.`;
      return this.decided(call, chain, { allowed: false, by: 'catastrophic', reason });
    }
    const hints: RiskHint[] = [...verdict.hints];
    for (const p of paths) {
      if (p.access === 'write') hints.push({ kind: 'write', fragment: p.real });
      if (!p.inside) hints.push({ kind: 'outside_workspace', fragment: p.real, detail: p.access === 'write' ? 'writes outside the workspace' : 'reads outside the workspace' });
    }
    // write_file writes whatever its paths say; without resolved facts, its own argument says where.
    if (tool === 'write_file' && !paths.some((p) => p.access === 'write')) hints.push({ kind: 'write', fragment: visible(String((args as { path?: unknown } | null)?.path ?? '')) });
    // A write to a file that decides what runs later (control-files.ts): named by the path, and by
    // what the tool found in the change itself (a package.json's lifecycle scripts).
    const control = cls.kind === 'shell' ? [] : controlFileHints(tool, args, paths);
    hints.push(...control);
    if (outbound) hints.push({ kind: 'network', fragment: 'web_search', detail: 'sends a query out after this run took in outside content or read secrets' });
    const risks = riskKindsOf(hints);
    // What a grant given on this call covers besides its risks: the programs it runs by name.
    const programs = [...new Set(verdict.programs ?? [])].sort();

    // spec 5.4: a parked call's approval covers what the person saw, judged on what is there now
    // (it is replayed as approved even if the conversation is now in plan mode).
    const { approved } = call;
    if (approved && risks.every((r) => approved.risks.includes(r)) && programs.every((p) => approved.programs.includes(p))) {
      return this.decided(call, chain, { allowed: true, by: 'user', decision: { kind: 'allow_once' }, requestId: approved.id, risks });
    }
    // Plan mode (spec 10) comes before every grant: a pre-approved write is refused, unasked.
    if (call.run.planMode) {
      const refusal = planModeRefusal(tool, { harmlessCommand: cls.kind === 'shell' && hints.length === 0, readOnlyHint: call.facts?.readOnlyHint === true });
      if (refusal) return this.decided(call, chain, { allowed: false, by: 'plan_mode', reason: refusal });
    }
    const hookAsk = call.hookAsk;
    const freeTool = cls.kind === 'free' && !(isFileRead && outside.length > 0) && !outbound && !hookAsk;
    if (freeTool) return { allowed: true, by: 'free', risks };
    const unconfined = (cls.kind === 'shell' && call.sandbox?.confined === false) ? call.sandbox : null;
    // Harmless means nothing at all: no hint from the command, none from where it runs.
    const riskFreeShell = cls.kind === 'shell' && hints.length === 0 && !unconfined;
    const onceOnly = pepeHome.length > 0;
    const narrowest = !anyArgumentsMayCover(risks) ? 'exact' : !scopedGrantMayCover(risks) ? 'exact_or_any' : undefined;

    // spec 3.5: with the sandbox not confining commands, every command is asked; only a grant for
    // exactly this call (the person saw it) still stands.
    const wide = !unconfined;
    if (!onceOnly && !hookAsk) {
      if (riskFreeShell && person && !tainted) return { allowed: true, by: 'free', risks };
      if (wide && this.grants.isBypassed(agent) && !tainted && narrowest !== 'exact') return this.decided(call, chain, { allowed: true, by: 'bypass', risks });
      const found = autoApproveEntry(call.agentConfig, tool, risks, programs);
      // Revoked since the turn began (from any window): asked from the very next call.
      const entry = wide && found !== null && (live?.savedStands(agent, found) ?? true) ? found : null;
      if (entry !== null && !tainted) return this.decided(call, chain, { allowed: true, by: 'auto_approve', entry, risks });
      // A person saw and allowed exactly these arguments this session; outside content changes
      // nothing about what they run, so the exact grant stands (the wider ones do not).
      if (this.grants.hasExact(agent, tool, args)) return this.decided(call, chain, { allowed: true, by: 'session_grant', grant: 'exact', risks });
      const task = (call.run.taskGrants ?? []).find(
        (g) => g.agent === agent && g.tool === tool && scopeCovers({ risks: new Set(g.risks), programs: new Set(g.programs ?? []) }, risks, programs) && (!tainted || g.givenWhileTainted),
      );
      if (task && wide) return this.decided(call, chain, { allowed: true, by: 'task_grant', risks });
      if (wide && !tainted && narrowest !== 'exact' && this.grants.hasAny(agent, tool)) return this.decided(call, chain, { allowed: true, by: 'session_grant', grant: 'any', risks });
      if (wide && !tainted && this.grants.coversRisks(agent, tool, risks, programs)) return this.decided(call, chain, { allowed: true, by: 'session_grant', grant: 'risks', risks });
    }

    const why: AskReason[] = [];
    if (onceOnly) why.push({ kind: 'pepe_home', paths: pepeHome.map((p) => p.real) });
    if (hookAsk) why.push({ kind: 'hook', reason: hookAsk });
    if (cls.kind === 'gated') why.push({ kind: 'gated_tool', known: cls.known });
    if (outside.length > 0) why.push({ kind: 'outside_workspace', paths: outside.map((p) => p.real) });
    if (outbound) why.push({ kind: 'outbound_after_outside', sources: [...call.run.outsideContentSources, ...(call.run.readOutsideWorkspace ? ['files read outside the workspace'] : []), ...(call.run.secretFiles ?? []).map((f) => `${f}, which looks like it holds secrets`)] });
    if (verdict.hints.length > 0) why.push({ kind: 'risk_hints', count: verdict.hints.length });
    if (control.length > 0) why.push({ kind: 'changes_what_runs', hints: control });
    if (narrowest && !onceOnly) why.push({ kind: 'narrow_grants', anyArguments: narrowest === 'exact_or_any' });
    if (unconfined) why.push({ kind: 'unconfined', reason: unconfined.reason ?? 'the sandbox is not confining commands' });
    if (tainted) {
      const withdrew: Withdrawn[] = [];
      if (autoApproveEntry(call.agentConfig, tool, risks) !== null) withdrew.push('auto_approve');
      if (this.grants.hasAny(agent, tool) || this.grants.coversRisks(agent, tool, risks, programs) || this.grants.isBypassed(agent)) withdrew.push('session_grant');
      if (cls.kind === 'shell' && hints.length === 0 && person && !unconfined) withdrew.push('risk_free_shell');
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
      risks,
      ...(programs.length ? { programs } : {}),
      ...(onceOnly ? { onceOnly: true } : {}),
      ...(narrowest && !onceOnly ? { narrowest } : {}),
      summary: summarizeCall(agent, tool, args, call.cwd, paths, call.facts?.notes),
      why,
      whyText: describeReasons(tool, why, verdict.hints),
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
    const parked = await this.park(request, 'no_person', call.facts, call.workspace);
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
      const parked = await this.park(request, 'prompt_failed', call.facts, call.workspace);
      return this.decided(
        call,
        request.chain,
        { allowed: false, by: 'prompt_failed', timedOut, reason: `Not run: ${what}; ${NOT_THE_USER}.${parked.note}`, requestId: request.id, ...(parked.id ? { pendingId: parked.id } : {}) },
        request.id,
      );
    }

    return this.apply(call, request, decision);
  }

  /** Records what the person chose (a grant scoped to the risks they saw) and lets the call run. */
  private async apply(call: ToolCallCheck, request: ApprovalRequest, decision: Decision): Promise<BarrierOutcome> {
    const { agent, tool, args } = call;
    const risks = request.risks;
    const programs = request.programs ?? [];
    if (decision.kind === 'deny') {
      const userReason = decision.reason?.trim() || undefined;
      const reason = `The user denied this call.${userReason ? ` Reason: ${visible(userReason)}` : ''}`;
      return this.decided(call, request.chain, { allowed: false, by: 'user', reason, requestId: request.id, ...(userReason ? { userReason } : {}) }, request.id, decision);
    }
    const outcome = { allowed: true as const, by: 'user' as const, decision: decision as AllowDecision, requestId: request.id, risks };
    // A write into Pepe's home is allowed once at most: no grant of any kind is recorded for it.
    if (request.onceOnly) return this.decided(call, request.chain, { ...outcome, decision: { kind: 'allow_once' } }, request.id, decision);
    const narrowed = narrowDecision(decision, request.narrowest);
    if (narrowed) {
      this.grants.grantExact(agent, tool, args);
      return this.decided(call, request.chain, { ...outcome, warning: narrowed }, request.id, decision);
    }
    let persist: string | null = null;
    switch (decision.kind) {
      case 'allow_task':
        (call.run.taskGrants ??= []).push({ agent, tool, risks, programs, givenWhileTainted: call.run.tookInOutsideContent, at: Date.now() });
        this.options.live?.changed();
        break;
      case 'allow_session':
        this.grants.grantExact(agent, tool, args);
        break;
      case 'allow_session_risks':
        this.grants.grantRisks(agent, tool, risks, programs);
        break;
      case 'allow_session_any':
        this.grants.grantAny(agent, tool);
        break;
      case 'always':
        // The running turn keeps the configuration it started with (spec 2), so the rest of this
        // session is granted in memory too; the persisted entry covers later sessions.
        this.grants.grantRisks(agent, tool, risks, programs);
        persist = scopedEntry(tool, risks, programs);
        break;
      case 'always_any':
        this.grants.grantAny(agent, tool);
        persist = tool;
        break;
      case 'bypass_session':
        this.grants.bypass(agent);
        break;
      case 'allow_once':
        break;
    }
    if (persist !== null) {
      try {
        await this.options.persistAlwaysAllow(agent, persist);
      } catch (e) {
        const warning = `allowed, but "always" could not be saved: ${errorMessage(e)}`;
        return this.decided(call, request.chain, { ...outcome, warning }, request.id, decision);
      }
    }
    return this.decided(call, request.chain, outcome, request.id, decision);
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

  // `facts` are kept with the parked call: its replay runs only if they still hold (tool invoker).
  private async park(request: ApprovalRequest, because: 'no_person' | 'prompt_failed', facts?: ToolCallCheck['facts'], workspace?: string): Promise<{ id?: string; note: string }> {
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
        ...(workspace !== undefined ? { workspace } : {}),
        parkedBecause: because,
        summary: request.summary,
        why: request.whyText,
        riskHints: request.riskHints,
        ...(request.programs?.length ? { programs: request.programs } : {}),
        ...(facts ? { facts } : {}),
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
    if (outcome.allowed && isFileReadOutside(call)) call.run.readOutsideWorkspace = true;
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
    return this.options.newId?.() ?? randomHex(4);
  }
}
