import { PepeError, errorMessage } from '../errors.js';
import type { Message } from '../messages.js';
import { selectPipeline } from './child-options.js';
import { bootstrapContext, inputContext, noEffects, outputContext, type ContextItem, type SentText, type SlotEffects, type SlotEnv, type TurnEnv } from './context.js';
import type { CoreHost, PipelineSelection } from './host.js';
import type { LoadedCore, LoadedSlot } from './loaded-core.js';
import type { Phase, PhasePipeline } from './pipelines.js';
import { ScopeState } from './state.js';
import type { JsonValue, SlotContext, SlotGroup } from './sdk-types.js';

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
  failures: SlotFailure[];
  /** Things to tell the user (restricted mode, inputSlots naming slots the pipeline lacks). */
  notices: string[];
  restricted: string | null;
}

export interface OutputRun extends PhaseOptions {
  responseText: string;
  rawText: string;
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
  await run.pipeline(core.pipelines.bootstrap, core.slots.bootstrap, (env) => bootstrapContext(env), (effects) => texts.push(...effects.bootstrap));
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
  for (const id of selected.missing) notices.push(`inputSlots names "${id}", which is not in the input pipeline of ${core.dir}; skipped`);
  const turnEnv = await turnEnvironment(host, core, selected.pipeline, selected.slots, args, () => null);
  const context: ContextItem[] = [];
  const skills: string[] = [];
  const run = phaseRunner(host, 'input', args);
  await run.pipeline(
    selected.pipeline,
    selected.slots,
    (env) => inputContext(env, turnEnv, args.rawText),
    (effects) => {
      context.push(...effects.context);
      skills.push(...effects.skills);
    },
    turnEnv,
  );
  const users = context.filter((c) => c.role === 'user');
  if (!users.length) throw new NoUserTextError(core);
  return { userText: users.map((u) => u.text).join('\n\n'), context, skills, failures: run.failures, notices, restricted: core.restricted };
}

/** Output (spec 7): serial slots, then parallel ones, after the provider response. */
export async function runOutput(core: LoadedCore, host: CoreHost, args: OutputRun): Promise<OutputResult> {
  const notices: string[] = [];
  const progress: string[] = [];
  const selected = selectPipeline(core, 'output', args.selection ?? 'all');
  for (const id of selected.missing) notices.push(`outputSlots names "${id}", which is not in the output pipeline of ${core.dir}; skipped`);
  const sent: SentText[] = [];
  let result: JsonValue | null = null;
  const turnEnv = await turnEnvironment(host, core, selected.pipeline, selected.slots, args, () => result);
  const run = phaseRunner(host, 'output', args);
  await run.pipeline(
    selected.pipeline,
    selected.slots,
    (env) =>
      outputContext(env, turnEnv, args.responseText, {
        progress: (text) => {
          progress.push(text);
          host.emit({ type: 'core_progress', slotId: env.slot.id, text });
        },
        notice: (text) => {
          notices.push(text);
          host.emit({ type: 'core_notice', slotId: env.slot.id, text });
        },
      }),
    (effects) => {
      sent.push(...effects.sent);
      if (effects.result) result = effects.result.value;
    },
    turnEnv,
  );
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

async function turnEnvironment(
  host: CoreHost,
  core: LoadedCore,
  pipeline: PhasePipeline,
  slots: Map<string, LoadedSlot>,
  args: { rawText: string; turnId: string; metadata?: Record<string, unknown>; history: readonly Message[] },
  result: () => JsonValue | null,
): Promise<TurnEnv> {
  const state = { session: new ScopeState(host, 'session'), core: new ScopeState(host, 'core') };
  // State is read synchronously by slots, so load it first, but only for slots that may use it.
  const caps = [...pipeline.serial, ...pipeline.parallel].flatMap((id) => slots.get(id)?.manifest.capabilities ?? []);
  if (!core.restricted) {
    if (caps.some((c) => c.startsWith('state.session.'))) await state.session.load();
    if (caps.some((c) => c.startsWith('state.core.'))) await state.core.load();
  }
  return {
    turn: { sessionId: host.sessionId, turnId: args.turnId, userInput: { content: args.rawText, metadata: args.metadata ?? {} } },
    history: args.history,
    state,
    result,
  };
}

function phaseRunner(host: CoreHost, phase: Phase, options: PhaseOptions) {
  const failures: SlotFailure[] = [];
  const signal = options.signal;

  async function runSlot(slot: LoadedSlot, group: SlotGroup, makeCtx: (env: SlotEnv) => SlotContext, turnEnv?: TurnEnv): Promise<{ effects: SlotEffects } | { error: string; timedOut: boolean }> {
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
      assertAlive: () => {
        if (stopped) throw new Error(`${phase} slot "${slot.id}" was stopped (${stopped}); its ctx can no longer be used`);
      },
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      if (signal?.aborted) throw new CoreCancelledError();
      const ctx = makeCtx(env);
      await Promise.race([
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
      return { effects };
    } catch (e) {
      stop('it failed');
      // State writes made before the failure are kept (they went through the host already).
      if (turnEnv) await Promise.allSettled([turnEnv.state.session.flush(), turnEnv.state.core.flush()]);
      if (signal?.aborted) throw new CoreCancelledError();
      return { error: errorMessage(e), timedOut: e instanceof TimeoutError };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  function fail(slot: LoadedSlot, outcome: { error: string; timedOut: boolean }): void {
    const policy = slot.manifest.failure_policy;
    host.emit({ type: 'core_slot_failed', phase, slotId: slot.id, policy, message: outcome.error, timedOut: outcome.timedOut });
    if (policy === 'hard') throw new CoreSlotError(phase, slot.id, outcome.error, outcome.timedOut);
    failures.push({ phase, slotId: slot.id, message: outcome.error, timedOut: outcome.timedOut });
  }

  return {
    failures,
    async pipeline(
      pipeline: PhasePipeline,
      slots: Map<string, LoadedSlot>,
      makeCtx: (env: SlotEnv) => SlotContext,
      commit: (effects: SlotEffects) => void,
      turnEnv?: TurnEnv,
    ): Promise<void> {
      const slotFor = (id: string) => {
        const slot = slots.get(id);
        if (!slot) throw new PepeError(`${phase} pipeline names "${id}", but the core has no such slot`, 1);
        return slot;
      };
      for (const id of pipeline.serial) {
        const slot = slotFor(id);
        const outcome = await runSlot(slot, 'serial', makeCtx, turnEnv);
        if ('effects' in outcome) commit(outcome.effects);
        else fail(slot, outcome);
      }
      const parallel = pipeline.parallel.map(slotFor);
      const outcomes = await Promise.all(parallel.map((slot) => runSlot(slot, 'parallel', makeCtx, turnEnv)));
      let hard: unknown = null;
      outcomes.forEach((outcome, i) => {
        if ('effects' in outcome) return commit(outcome.effects);
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
