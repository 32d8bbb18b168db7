import type { Builtins } from './builtin/index.js';
import type { AgentConfig } from '../config/schema.js';
import { staticChain } from './builtin/model-select.js';
import { withDeadline } from './deadline.js';
import { errorMessage } from '../errors.js';
import type { LogEntry } from '../log.js';
import { JsonLinesFile } from '../jsonl.js';
import type { Message } from '../messages.js';
import { PluginCallError } from '../plugins/plugin-worker.js';
import type { PluginInfo } from '../plugins/registry.js';
import { availability } from './availability.js';
import { builtinUses } from './builtin-uses.js';
import {
  DEFAULT_DEADLINE_MS,
  FAILURE_POLICY,
  SLOT_FUNCTION,
  SLOT_RESULTS,
  type HarnessPlugin,
  type MemoryHit,
  type ModelRef,
  type SandboxResult,
  type SlotResult,
  type WebHit,
} from './contracts.js';
import type { SlotName } from './names.js';
import { resolveConfigured, type ResolveTarget } from './resolve.js';
import { HarnessFailedError, SandboxRefusedError, type Fallback } from './slot-errors.js';
import type { CompactRequest, FallbackRecord, SandboxCall, SlotAnswer, SlotEvents, SlotOverview, SlotServiceDeps, SlotStatus } from './slot-types.js';

export { HarnessFailedError, SandboxRefusedError, type Fallback } from './slot-errors.js';

export type { CompactRequest, FallbackRecord, SandboxCall, SlotAnswer, SlotEvents, SlotOverview, SlotServiceDeps, SlotStatus } from './slot-types.js';

const SLOT_RECORD_KINDS = new Set(['slot_fallback', 'slot_recovered', 'slot_record_cleared']);
type SlotLogEntry = Extract<LogEntry, { kind: 'slot_fallback' | 'slot_recovered' | 'slot_record_cleared' }>;

const NO_FALLBACKS: FallbackRecord = { count: 0, lastReason: null, lastAt: null, recovered: false, recoveredAt: null };

/**
 * The one place slot calls go through (spec 3.3): resolution, the deadline, result validation,
 * fallback to the built-in for that call (or refusal / error by design), and the fallback record.
 */
export class SlotService {
  constructor(private readonly deps: SlotServiceDeps) {}

  deadlineMs(slot: SlotName): number {
    return this.deps.config().slot_deadlines_ms?.[slot] ?? DEFAULT_DEADLINE_MS[slot];
  }

  async status(target: ResolveTarget = {}): Promise<SlotStatus[]> {
    const view = await this.statusView();
    return (Object.keys(SLOT_RESULTS) as SlotName[]).map((slot) => view(slot, target));
  }

  /**
   * Every slot as resolved install-wide, with the project and agent overrides of it, each
   * resolved for its own scope: what a host's slot list shows, from one query.
   */
  async overview(): Promise<SlotOverview[]> {
    const view = await this.statusView();
    const config = this.deps.config();
    return (Object.keys(SLOT_RESULTS) as SlotName[]).map((slot) => ({
      ...view(slot, {}),
      overrides: [
        ...Object.entries(config.projects ?? {})
          .filter(([, p]) => p.default_slots?.[slot])
          .map(([project]) => ({ scope: 'project' as const, name: project, status: view(slot, { project }) })),
        ...Object.entries(config.agents ?? {})
          .filter(([, a]) => a.slots?.[slot])
          .map(([agent]) => ({ scope: 'agent' as const, name: agent, status: view(slot, { agent }) })),
      ],
    }));
  }

  /** Reads the plugins, the fallback history and the sandbox's confinement once for many rows. */
  private async statusView(): Promise<(slot: SlotName, target: ResolveTarget) => SlotStatus> {
    const plugins = await this.deps.registry.list();
    const history = this.fallbackHistory();
    const confinement = await this.deps.sandboxStatus?.();
    return (slot, target) => {
      const { configured, scope } = resolveConfigured(this.deps.config(), slot, target);
      const h = history.get(`${slot}\u0000${configured ?? 'builtin'}`) ?? NO_FALLBACKS;
      const uses = builtinUses(slot, this.deps.config(), confinement);
      let row: SlotStatus;
      if (!configured) row = { slot, configured, occupant: 'builtin', status: 'ok', reason: null, scope, default: 'builtin', fallbacks: h, uses };
      else {
        const a = availability(slot, configured, plugins);
        row = a.ok
          ? { slot, configured, occupant: configured, status: 'ok', reason: null, scope, default: 'builtin', fallbacks: h, uses: null }
          : { slot, configured, occupant: 'builtin', status: 'default-instead', reason: a.reason, scope, default: 'builtin', fallbacks: h, uses };
      }
      // The built-in sandbox answering without confinement is said plainly (spec 3.5).
      return row.slot === 'sandbox' && row.occupant === 'builtin' && row.status === 'ok' && confinement && !confinement.confined ? { ...row, status: 'unconfined', reason: confinement.reason } : row;
    };
  }

  /** The history below, kept until the log changes (the Slots view asks on every refresh). */
  private history: { from: readonly unknown[]; counts: Map<string, FallbackRecord> } | null = null;
  private slotLines: JsonLinesFile<SlotLogEntry> | null = null;

  /**
   * Per slot and occupant: fallbacks since the slot was last set or cleared, and whether a clean
   * answer came after the last one. Read from the log, so every process (CLI, extension) agrees.
   */
  private fallbackHistory(): Map<string, FallbackRecord> {
    // The three kinds in the order written (one reader keeps file order; timestamps can tie).
    // read() returns the same array until the log file changes; count again only then.
    this.slotLines ??= new JsonLinesFile<SlotLogEntry>(this.deps.log.file, (v) => (SLOT_RECORD_KINDS.has((v as { kind?: string } | null)?.kind ?? '') ? (v as SlotLogEntry) : undefined));
    const events = this.slotLines.read();
    if (this.history?.from === events) return this.history.counts;
    const out = new Map<string, FallbackRecord>();
    for (const e of events) {
      if (e.kind === 'slot_record_cleared') {
        for (const key of [...out.keys()]) if (key.startsWith(`${e.slot}\u0000`)) out.delete(key);
        continue;
      }
      const key = `${e.slot}\u0000${e.occupant}`;
      const prev = out.get(key) ?? NO_FALLBACKS;
      if (e.kind === 'slot_recovered') out.set(key, { ...prev, recovered: prev.count > 0, recoveredAt: prev.count > 0 ? e.ts : null });
      else out.set(key, { count: prev.count + 1, lastReason: `${e.reason}: ${e.detail}`, lastAt: e.ts, recovered: false, recoveredAt: null });
    }
    this.history = { from: events, counts: out };
    return out;
  }

  /** After `slot set` or `slot clear`: the slot starts with a clean record. */
  clearRecord(slot: SlotName, by: 'set' | 'clear'): void {
    this.deps.log.write({ kind: 'slot_record_cleared', slot, by });
  }

  /** A clean answer from an occupant whose last recorded call fell back: recorded once, as a recovery. */
  private noteCleanAnswer(slot: SlotName, occupant: string, agent: string | null): void {
    const h = this.fallbackHistory().get(`${slot}\u0000${occupant}`);
    if (h && h.count > 0 && !h.recovered) this.deps.log.write({ kind: 'slot_recovered', slot, occupant, agent });
  }

  // ---- the slots, as the runtime calls them ----
  // Each call is one line at its call site: the service resolves the occupant, guards the plugin,
  // answers with the built-in it owns when needed, and emits the fallback event to `events`.
  // `builtin` overrides the built-in occupant (benchmarks measuring one occupant do).

  memorySearch(
    agent: string,
    query: string,
    opts: { limit?: number; mode?: 'keyword' | 'vector' | 'hybrid' },
    events?: SlotEvents,
    builtin: () => Promise<MemoryHit[]> = () => this.builtins().memory.search(agent, query, { limit: opts.limit ?? 20 }),
  ): Promise<SlotAnswer<MemoryHit[]>> {
    return this.answer('memory', { agent }, [agent, query, opts], builtin, { events });
  }

  webSearch(
    agent: string | null,
    query: string,
    opts: { limit?: number; signal?: AbortSignal },
    events?: SlotEvents,
    builtin: () => Promise<WebHit[]> = () => this.builtins().webSearch.search(query, { limit: opts.limit ?? 5, ...(opts.signal ? { signal: opts.signal } : {}) }),
  ): Promise<SlotAnswer<WebHit[]>> {
    return this.answer('web_search', { agent }, [query, { limit: opts.limit }], builtin, { events });
  }

  /**
   * Runs a command through the sandbox slot. Throws SandboxRefusedError when a configured sandbox
   * plugin fails or is unavailable (after telling `events` and the surface). What a plugin ran is
   * mirrored to the surface that shows the built-in's commands.
   */
  async sandboxRun(
    agent: string | null,
    program: string,
    argv: string[],
    opts: SandboxCall,
    events?: SlotEvents,
    builtin?: () => Promise<SandboxResult>,
  ): Promise<SlotAnswer<SandboxResult>> {
    // The call's own timeout is the real deadline; the slot's ceiling is only a safety net.
    const deadline = Math.min(opts.timeoutMs + 2_000, this.deadlineMs('sandbox'));
    const { cwd, env, timeoutMs } = opts;
    const run =
      builtin ??
      (async () => {
        const r = await this.builtins().runSandbox(agent, program, argv, opts);
        return { output: r.output, exitStatus: r.exitStatus };
      });
    try {
      const answer = await this.answer('sandbox', { agent }, [program, argv, { cwd, env, timeoutMs }], run, { deadlineMs: deadline, events });
      if (answer.answeredBy !== 'builtin') this.deps.builtins?.mirrorSandbox(agent, program, argv, { occupant: answer.answeredBy, ...answer.result });
      return answer;
    } catch (e) {
      if (e instanceof SandboxRefusedError) this.deps.builtins?.mirrorSandbox(agent, program, argv, { occupant: e.occupant, refused: e.message });
      throw e;
    }
  }

  /** Spec 3.3: the model chain for one turn (the built-in: the agent's configured chain). */
  modelChain(agent: string, agentConfig: AgentConfig, events?: SlotEvents, builtin: () => Promise<ModelRef[]> = async () => staticChain(this.deps.config(), agentConfig)): Promise<SlotAnswer<ModelRef[]>> {
    return this.answer('model_select', { agent }, [{ name: agent, ...agentConfig }], builtin, { usageTiers: this.usageTiers(), events });
  }

  /** Spec 4.7: may a due pulse fire? (the built-in: yes). */
  heartbeatAllowed(agent: string | null, project: string | null, events?: SlotEvents, builtin: () => Promise<boolean> = async () => true): Promise<SlotAnswer<boolean>> {
    return this.answer('heartbeat_interval', { agent, project }, [project], builtin, { usageTiers: this.usageTiers(), events });
  }

  /** Spec 4.5: condense a prompt (the built-in summarises the middle with the model; it never fails). */
  compact(agent: string | null, args: CompactRequest, events?: SlotEvents, builtin?: () => Promise<Message[]>): Promise<SlotAnswer<Message[]>> {
    const agentArg = args.agentConfig && agent ? { name: agent, ...args.agentConfig } : null;
    const summarise =
      builtin ??
      (async () => {
        try {
          return await this.builtins().compact(args.messages, args.model, args.signal);
        } catch {
          return args.messages; // spec 4.5: the built-in returns the messages unchanged when it cannot summarise
        }
      });
    return this.answer('compaction', { agent }, [args.messages, args.model, agentArg, args.sessionKey], summarise, { events });
  }

  /**
   * Spec 3.3: a whole turn through the harness plugin configured for `agent`, inside the guard
   * (its deadline, its result validated against the contract). Its failure is the turn's error:
   * HarnessFailedError, recorded and told to `events`; the built-in loop never re-runs it.
   */
  runHarness(
    agent: string,
    agentConfig: AgentConfig,
    messages: Message[],
    opts: { signal?: AbortSignal; onDelta?: (text: string) => void },
    events?: SlotEvents,
  ): Promise<SlotAnswer<SlotResult<'harness'>>> {
    const call = async (deadlineMs: number): Promise<unknown> => {
      const harness = await this.harnessFor(agent);
      if (!harness) throw new PluginCallError('error', 'no harness is configured for this agent');
      const running = Promise.resolve().then(() =>
        harness.plugin.run({ name: agent, ...agentConfig }, messages, {
          ...(opts.signal ? { signal: opts.signal } : {}),
          onEvent: (e) => {
            if (e.type === 'assistant_delta' && typeof e.text === 'string') opts.onDelta?.(e.text);
          },
        }),
      );
      return withDeadline(running, deadlineMs, () => new PluginCallError('timeout', `no answer within ${deadlineMs} ms`));
    };
    const never = () => Promise.reject(new Error('the harness has no built-in fallback'));
    return this.answer('harness', { agent }, [], never, { events, call });
  }

  /** Whether a harness plugin is pinned for `agent` (then it answers whole turns). */
  harnessConfigured(agent: string): string | null {
    return resolveConfigured(this.deps.config(), 'harness', { agent }).configured;
  }

  /** A command is on its way for `agent`: the built-in sandbox, when it will run it, gets ready (BuiltinSandbox.warmUp). */
  sandboxWarmUp(agent: string | null): void {
    if (resolveConfigured(this.deps.config(), 'sandbox', { agent }).configured) return;
    this.deps.builtins?.sandbox.warmUp().catch(() => undefined);
  }

  /** Spec 3.5: a sandbox plugin is the confinement; the built-in says whether it confines now. */
  async sandboxConfinement(agent: string | null): Promise<{ confined: boolean; reason?: string }> {
    if (resolveConfigured(this.deps.config(), 'sandbox', { agent }).configured) return { confined: true };
    const status = await this.builtins().sandbox.status();
    return status.confined ? { confined: true } : { confined: false, reason: status.reason };
  }

  private builtins(): Builtins {
    if (!this.deps.builtins) throw new Error('this SlotService was built without its built-in occupants');
    return this.deps.builtins;
  }

  private usageTiers(): Record<string, string> {
    return this.deps.usageTiers?.() ?? {};
  }

  /**
   * The harness plugin configured for this agent, as a proxy to its own process (spec 3.3), or
   * null for the built-in loop. A configured harness that cannot be loaded
   * is an error, not a silent switch to the built-in.
   */
  async harnessFor(agent: string): Promise<{ name: string; plugin: HarnessPlugin } | null> {
    const { configured } = resolveConfigured(this.deps.config(), 'harness', { agent });
    if (!configured) return null;
    const plugins = await this.deps.registry.list();
    const a = availability('harness', configured, plugins);
    if (!a.ok) throw new HarnessFailedError(configured, { reason: 'error', detail: a.reason });
    const inProcess = this.deps.registry.inProcessPlugin(configured);
    if (inProcess) return { name: configured, plugin: inProcess as unknown as HarnessPlugin };
    // Out of process (spec 3.3): the deadline ends the harness's process, a synchronous loop included.
    return { name: configured, plugin: this.deps.registry.harnessPlugin(a.plugin, this.deadlineMs('harness')) as unknown as HarnessPlugin };
  }

  /** Records a harness failure like any slot fallback event, then returns the error to throw. */
  harnessFailed(agent: string, occupant: string, e: unknown, durationMs: number): HarnessFailedError {
    const fallback: Fallback = e instanceof PluginCallError ? { reason: e.reason, detail: e.detail } : { reason: 'error', detail: errorMessage(e) };
    this.record('harness', occupant, agent, fallback, durationMs, 'error');
    return new HarnessFailedError(occupant, fallback);
  }

  private async answer<S extends SlotName>(
    slot: S,
    target: ResolveTarget,
    args: unknown[],
    builtin: () => Promise<SlotResult<S>>,
    extra: { deadlineMs?: number; usageTiers?: Record<string, string>; events?: SlotEvents | undefined; call?: (deadlineMs: number) => Promise<unknown> } = {},
  ): Promise<SlotAnswer<SlotResult<S>>> {
    const started = performance.now();
    const { configured } = resolveConfigured(this.deps.config(), slot, target);
    if (!configured) {
      const result = await builtin();
      return { slot, occupant: 'builtin', answeredBy: 'builtin', fallback: null, durationMs: performance.now() - started, result };
    }
    let fallback: Fallback;
    try {
      const plugins = await this.deps.registry.list();
      const a = availability(slot, configured, plugins);
      if (!a.ok) throw new PluginCallError('error', a.reason);
      const deadlineMs = extra.deadlineMs ?? this.deadlineMs(slot);
      const raw = extra.call ? await extra.call(deadlineMs) : await this.callPlugin(a.plugin, SLOT_FUNCTION[slot], args, deadlineMs, extra.usageTiers);
      const parsed = SLOT_RESULTS[slot].safeParse(raw);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw new PluginCallError('malformed', `result does not match the ${slot} contract: ${first ? `${first.path.join('.') || 'result'}: ${first.message}` : 'invalid'}`);
      }
      this.noteCleanAnswer(slot, configured, target.agent ?? null);
      return { slot, occupant: configured, answeredBy: configured, fallback: null, durationMs: performance.now() - started, result: parsed.data as SlotResult<S> };
    } catch (e) {
      fallback = e instanceof PluginCallError ? { reason: e.reason, detail: e.detail } : { reason: 'error', detail: errorMessage(e) };
    }
    const agent = target.agent ?? null;
    const policy = FAILURE_POLICY[slot];
    const tell = (outcome: 'builtin' | 'refused' | 'error') => {
      this.record(slot, configured, agent, fallback, performance.now() - started, outcome);
      extra.events?.emit({ type: 'slot_fallback', path: extra.events.path, slot, occupant: configured, reason: fallback.reason, detail: fallback.detail, outcome });
    };
    if (policy === 'refuse') {
      tell('refused');
      throw new SandboxRefusedError(configured, fallback, performance.now() - started);
    }
    if (policy === 'error') {
      tell('error');
      throw new HarnessFailedError(configured, fallback);
    }
    tell('builtin');
    const result = await builtin();
    return { slot, occupant: configured, answeredBy: 'builtin', fallback, durationMs: performance.now() - started, result };
  }

  private async callPlugin(plugin: PluginInfo, fn: string, args: unknown[], deadlineMs: number, usageTiers?: Record<string, string>): Promise<unknown> {
    if (plugin.source === 'extension') {
      // Another extension's in-process occupant only gets the async-deadline part of the guard.
      const p = this.deps.registry.inProcessPlugin(plugin.name!);
      const f = p?.[fn];
      if (typeof f !== 'function') throw new PluginCallError('error', `plugin has no function ${fn}()`);
      const callArgs = usageTiers ? [...args, { usageTier: (project?: string | null) => usageTiers[project ?? ''] ?? 'normal' }] : args;
      try {
        return await withDeadline(() => (f as (...a: unknown[]) => unknown).apply(p, callArgs), deadlineMs, () => new PluginCallError('timeout', `no answer within ${deadlineMs} ms`));
      } catch (e) {
        throw e instanceof PluginCallError ? e : new PluginCallError('error', errorMessage(e));
      }
    }
    const worker = this.deps.registry.workerFor(plugin.file);
    if (!worker) throw new PluginCallError('error', `plugin "${plugin.name}" is not loaded`);
    return worker.call(fn, args, deadlineMs, usageTiers ? { usageTiers } : undefined);
  }

  private record(slot: SlotName, occupant: string, agent: string | null, fallback: Fallback, durationMs: number, outcome: 'builtin' | 'refused' | 'error'): void {
    this.deps.log.write({ kind: 'slot_fallback', slot, occupant, agent, reason: fallback.reason, detail: fallback.detail, durationMs: Math.round(durationMs), outcome });
  }
}
