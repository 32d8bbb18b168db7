import { PepeError, errorMessage } from '../errors.js';
import type { Message } from '../messages.js';
import { selectPipeline } from './child-options.js';
import { bootstrapContext, inputContext, noEffects, outputContext, slotGrants, type ContextItem, type LiveChannel, type SentText, type SlotEffects, type SlotEnv, type TurnEnv } from './context.js';
import type { CoreHost, PipelineSelection } from './host.js';
import { RemoteReturn, type LoadedCore, type LoadedSlot } from './loaded-core.js';
import type { Phase, PhasePipeline } from './pipelines.js';
import { ScopeState } from './state.js';
import type { Attachment, JsonValue, SlotContext, SlotGroup } from './sdk-types.js';

/** Used when a slot's `timeout_seconds` is null. */
export const DEFAULT_SLOT_TIMEOUT_SECONDS = 300;

/** A slot failed under `failure_policy: hard`: the phase (and the turn) cannot go on. */
export class CoreSlotError extends PepeError {
  constructor(readonly phase: Phase, readonly slotId: string, readonly detail: string, readonly timedOut: boolean) {
    super(`${phase} slot "${slotId}" failed: ${detail}`, 1);
  }
}

/** The input pipeline produced no user text (spec 7): the turn cannot go on. */
export class NoUserTextError extends PepeError {
  constructor(core: LoadedCore) {
    super(
      `the agent core's input pipeline produced no user text: no input slot called ctx.input.addContext(text, {role: 'user'}); add base_input to input.serial in ${core.surfaceRoot}/pipelines.yaml`,
      1,
    );
  }
}

export class CoreCancelledError extends PepeError {
  constructor() {
    super('cancelled', 1);
  }
}

/** A slot that failed under `failure_policy: soft`: logged, and the phase went on without its effects. */
export interface SlotFailure {
  phase: Phase;
  slotId: string;
  message: string;
  timedOut: boolean;
  /** The slot's module and, when the error says, the line in it (for the log). */
  file?: string;
  line?: number;
}

export interface PhaseOptions {
  signal?: AbortSignal;
  /** For a slot whose timeout_seconds is null (default 300). */
  defaultTimeoutSeconds?: number;
}

export interface BootstrapResult {
  /** Session-stable context, in order: persist it with the session and inject it after the system prompt. */
  texts: string[];
  failures: SlotFailure[];
  /** Why the core's own slots did not run (untrusted workspace), or null. */
  restricted: string | null;
}

export interface InputRun extends PhaseOptions {
  rawText: string;
  turnId: string;
  metadata?: Record<string, unknown>;
  /** Metadata of what came with the text (ctx.input.attachments). */
  attachments?: readonly Attachment[];
  /** The session transcript so far (for ctx.history). */
  history: readonly Message[];
  /** For a child agent: which input slots run (default 'all', the configured pipeline). */
  selection?: PipelineSelection;
}

export interface InputResult {
  /** This turn's user text: every user-role context item, joined by blank lines. Never empty. */
  userText: string;
  /** Every context item in the order added (user and system); see inputMessages/composePrompt. */
  context: ContextItem[];
  /** Skills the slots activated. */
  skills: string[];
  /** What input slots sent with ctx.input.sendText (transient: shown, never history). */
  sent: SentText[];
  progress: string[];
  failures: SlotFailure[];
  /** Things to tell the user (restricted mode, inputSlots naming slots the pipeline lacks). */
  notices: string[];
  restricted: string | null;
}

export interface OutputRun extends PhaseOptions {
  responseText: string;
  rawText: string;
  /** This turn's user message as the input pipeline built it (default rawText): ctx.history shows it. */
  userText?: string;
  turnId: string;
  metadata?: Record<string, unknown>;
  history: readonly Message[];
  selection?: PipelineSelection;
}

export interface OutputResult {
  /** Every text sent, in order. */
  sent: SentText[];
  /** What the user gets as the answer: the visible sent texts joined by blank lines ('' when none sent). */
  delivered: string;
  /** False when no slot sent or recorded anything: the raw response stays only in the runtime records. */
  recorded: boolean;
  progress: string[];
  notices: string[];
  /** What serial output slots set with ctx.result.set (null when none). */
  result: JsonValue | null;
  failures: SlotFailure[];
  restricted: string | null;
}

/** Bootstrap (spec 7): once per session, before the first turn. Return values are ignored. */
export async function runBootstrap(core: LoadedCore, host: CoreHost, options: PhaseOptions = {}): Promise<BootstrapResult> {
  const texts: string[] = [];
  const run = phaseRunner(host, 'bootstrap', options);
  if (core.restricted) host.emit({ type: 'core_restricted', reason: core.restricted });
  await run.pipeline(core, core.pipelines.bootstrap, core.slots.bootstrap, (env) => bootstrapContext(env), (effects) => texts.push(...effects.bootstrap));
  return { texts, failures: run.failures, restricted: core.restricted };
}

/** Input (spec 7): serial slots, then parallel ones, before the provider call. */
export async function runInput(core: LoadedCore, host: CoreHost, args: InputRun): Promise<InputResult> {
  const notices: string[] = [];
  if (core.restricted) {
    notices.push(core.restricted);
    host.emit({ type: 'core_restricted', reason: core.restricted });
  }
  const selected = selectPipeline(core, 'input', args.selection ?? 'all');
  if (selected.missing.length) throw new PepeError(unknownSlots('input', selected.missing, core), 2);
  const turnEnv = await turnEnvironment(host, core, selected.pipeline, selected.slots, args, () => null);
  // A child agent's caller may hand it context (the `context` option): system text for this turn.
  const context: ContextItem[] = (host.extraContext ?? []).map((text) => ({ role: 'system', text, slotId: '(caller)', placement: 'pre_current_user', historyPolicy: 'transient' }));
  const skills: string[] = [];
  const sent: SentText[] = [];
  const progress: string[] = [];
  const run = phaseRunner(host, 'input', args, liveFor(host, progress, notices));
  await run.pipeline(
    core,
    selected.pipeline,
    selected.slots,
    (env) => inputContext(env, turnEnv, args.rawText),
    (effects, slot) => {
      context.push(...effects.context);
      skills.push(...effects.skills);
      sent.push(...effects.sent);
      for (const s of effects.sent) host.emit({ type: 'core_sent', phase: 'input', slotId: slot.id, text: s.text, visible: s.visible });
    },
    turnEnv,
  );
  const users = context.filter((c) => c.role === 'user');
  if (!users.length) throw new NoUserTextError(core);
  return { userText: users.map((u) => u.text).join('\n\n'), context, skills, sent, progress, failures: run.failures, notices, restricted: core.restricted };
}

/** Output (spec 7): serial slots, then parallel ones, after the provider response. */
export async function runOutput(core: LoadedCore, host: CoreHost, args: OutputRun): Promise<OutputResult> {
  const notices: string[] = [];
  const progress: string[] = [];
  const selected = selectPipeline(core, 'output', args.selection ?? 'all');
  if (selected.missing.length) throw new PepeError(unknownSlots('output', selected.missing, core), 2);
  const sent: SentText[] = [];
  let result: JsonValue | null = null;
  // Output slots see the turn they answer: its user message and the model's answer.
  const turnMessages = [
    { role: 'user', content: args.userText ?? args.rawText, turnId: args.turnId },
    { role: 'assistant', content: args.responseText, turnId: args.turnId },
  ] as Message[];
  const turnEnv = await turnEnvironment(host, core, selected.pipeline, selected.slots, { ...args, history: [...args.history, ...turnMessages] }, () => result);
  const run = phaseRunner(host, 'output', args, liveFor(host, progress, notices));
  await run.pipeline(
    core,
    selected.pipeline,
    selected.slots,
    (env) => outputContext(env, turnEnv, args.responseText),
    (effects) => {
      sent.push(...effects.sent);
      if (effects.result) result = effects.result.value;
    },
    turnEnv,
  );
  host.outputDone?.(sent);
  return {
    sent,
    delivered: sent.filter((s) => s.visible).map((s) => s.text).join('\n\n'),
    recorded: sent.length > 0,
    progress,
    notices,
    result,
    failures: run.failures,
    restricted: core.restricted,
  };
}

function unknownSlots(phase: 'input' | 'output', ids: string[], core: LoadedCore): string {
  const have = [...core.pipelines[phase].serial, ...core.pipelines[phase].parallel];
  return `${phase}Slots names ${ids.map((id) => `"${id}"`).join(', ')}, which ${ids.length === 1 ? 'is' : 'are'} not in the ${phase} pipeline of ${core.dir} (it has: ${have.join(', ') || 'nothing'})`;
}

/** Progress and notices go to the surface as they happen (and to the phase's result). */
function liveFor(host: CoreHost, progress: string[], notices: string[]): (slotId: string) => LiveChannel {
  return (slotId) => ({
    progress: (text) => {
      progress.push(text);
      host.emit({ type: 'core_progress', slotId, text });
    },
    notice: (text) => {
      notices.push(text);
      host.emit({ type: 'core_notice', slotId, text });
    },
  });
}

async function turnEnvironment(
  host: CoreHost,
  core: LoadedCore,
  pipeline: PhasePipeline,
  slots: Map<string, LoadedSlot>,
  args: { rawText: string; turnId: string; metadata?: Record<string, unknown>; attachments?: readonly Attachment[]; history: readonly Message[] },
  result: () => JsonValue | null,
): Promise<TurnEnv> {
  const state = { session: new ScopeState(host, 'session'), core: new ScopeState(host, 'core') };
  // State is read synchronously by slots, so load it first, but only for slots that may use it.
  const caps = [...pipeline.serial, ...pipeline.parallel].flatMap((id) => {
    const slot = slots.get(id);
    return slot ? slotGrants(slot) : [];
  });
  if (!core.restricted) {
    if (caps.some((c) => c.startsWith('state.session.'))) await state.session.load();
    if (caps.some((c) => c.startsWith('state.core.'))) await state.core.load();
  }
  const metadata = args.metadata ?? {};
  return {
    turn: {
      sessionId: host.sessionId,
      turnId: args.turnId,
      coreId: host.agent,
      coreRevision: core.revision ?? '',
      userInput: { content: args.rawText, metadata },
      metadata,
    },
    history: args.history,
    state,
    result,
    attachments: args.attachments ?? [],
  };
}

/** Where in the slot's module an error was thrown, from its stack (the line survives transpiling). */
function errorSite(e: unknown, slot: LoadedSlot): { file?: string; line?: number } {
  if (!slot.moduleFile) return {};
  const stack = e instanceof Error ? (e.stack ?? '') : '';
  const escaped = slot.moduleFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  return m ? { file: slot.moduleFile, line: Number(m[1]) } : { file: slot.moduleFile };
}

function phaseRunner(host: CoreHost, phase: Phase, options: PhaseOptions, live?: (slotId: string) => LiveChannel) {
  const failures: SlotFailure[] = [];
  const signal = options.signal;

  type Outcome = { effects: SlotEffects } | { error: string; timedOut: boolean; file?: string; line?: number };
  async function runSlot(core: LoadedCore, slot: LoadedSlot, group: SlotGroup, makeCtx: (env: SlotEnv) => SlotContext, turnEnv?: TurnEnv): Promise<Outcome> {
    const ac = new AbortController();
    let stopped: string | null = null;
    const stop = (why: string) => {
      stopped ??= why;
      ac.abort(new Error(why));
    };
    const onOuterAbort = () => stop('the turn was cancelled');
    signal?.addEventListener('abort', onOuterAbort, { once: true });
    const seconds = slot.manifest.timeout_seconds ?? options.defaultTimeoutSeconds ?? DEFAULT_SLOT_TIMEOUT_SECONDS;
    const effects = noEffects();
    const env: SlotEnv = {
      host,
      slot,
      group,
      signal: ac.signal,
      effects,
      core: { revision: core.revision ?? '', skills: core.skills ?? {} },
      live: live?.(slot.id) ?? { progress: () => undefined, notice: () => undefined },
      assertAlive: () => {
        if (stopped) throw new Error(`${phase} slot "${slot.id}" was stopped (${stopped}); its ctx can no longer be used`);
      },
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      if (signal?.aborted) throw new CoreCancelledError();
      const ctx = makeCtx(env);
      const returned = await Promise.race([
        Promise.resolve().then(() => slot.entry(ctx)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            reject(new TimeoutError(`timed out after ${seconds} s (timeout_seconds in ${slot.manifestFile})`));
            stop(`timed out after ${seconds} s (timeout_seconds)`);
          }, seconds * 1000);
        }),
        new Promise<never>((_, reject) => {
          ac.signal.addEventListener('abort', () => reject(signal?.aborted ? new CoreCancelledError() : new Error(String(stopped))), { once: true });
        }),
      ]);
      if (turnEnv) {
        await turnEnv.state.session.flush();
        await turnEnv.state.core.flush();
      }
      stop('it returned');
      // Return values are never a way to act (as upstream); say so rather than drop them silently.
      if (returned !== undefined && returned !== null) {
        const valueType = returned instanceof RemoteReturn ? returned.valueType : Array.isArray(returned) ? 'array' : typeof returned;
        host.emit({ type: 'core_return_ignored', phase, slotId: slot.id, valueType });
      }
      return { effects };
    } catch (e) {
      stop('it failed');
      // State writes made before the failure are kept (they went through the host already).
      if (turnEnv) await Promise.allSettled([turnEnv.state.session.flush(), turnEnv.state.core.flush()]);
      if (signal?.aborted) throw new CoreCancelledError();
      return { error: errorMessage(e), timedOut: e instanceof TimeoutError, ...errorSite(e, slot) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  function fail(slot: LoadedSlot, outcome: { error: string; timedOut: boolean; file?: string; line?: number }): void {
    const policy = slot.manifest.failure_policy;
    const site = { ...(outcome.file ? { file: outcome.file } : {}), ...(outcome.line ? { line: outcome.line } : {}) };
    host.emit({ type: 'core_slot_failed', phase, slotId: slot.id, policy, message: outcome.error, timedOut: outcome.timedOut, ...site });
    if (policy === 'hard') throw new CoreSlotError(phase, slot.id, outcome.error, outcome.timedOut);
    failures.push({ phase, slotId: slot.id, message: outcome.error, timedOut: outcome.timedOut, ...site });
  }

  return {
    failures,
    async pipeline(
      core: LoadedCore,
      pipeline: PhasePipeline,
      slots: Map<string, LoadedSlot>,
      makeCtx: (env: SlotEnv) => SlotContext,
      commit: (effects: SlotEffects, slot: LoadedSlot) => void,
      turnEnv?: TurnEnv,
    ): Promise<void> {
      const slotFor = (id: string) => {
        const slot = slots.get(id);
        if (!slot) throw new PepeError(`${phase} pipeline names "${id}", but the core has no such slot`, 1);
        return slot;
      };
      // The parallel lane starts alongside the serial lane (as upstream), not after it; the phase
      // ends when both have.
      const parallel = pipeline.parallel.map(slotFor);
      const lane = Promise.all(parallel.map((slot) => runSlot(core, slot, 'parallel', makeCtx, turnEnv)));
      lane.catch(() => undefined);
      let hard: unknown = null;
      try {
        for (const id of pipeline.serial) {
          const slot = slotFor(id);
          const outcome = await runSlot(core, slot, 'serial', makeCtx, turnEnv);
          if ('effects' in outcome) commit(outcome.effects, slot);
          else fail(slot, outcome);
        }
      } catch (e) {
        hard = e;
      }
      const outcomes = await lane;
      outcomes.forEach((outcome, i) => {
        if ('effects' in outcome) return commit(outcome.effects, parallel[i]!);
        try {
          fail(parallel[i]!, outcome);
        } catch (e) {
          hard ??= e;
        }
      });
      if (hard) throw hard;
    },
  };
}

class TimeoutError extends Error {
  override name = 'TimeoutError';
}
