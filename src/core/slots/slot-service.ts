import type { PepeConfig } from '../config/schema.js';
import { PepeError, errorMessage } from '../errors.js';
import type { EventLog } from '../log.js';
import type { Message } from '../messages.js';
import { PluginCallError, type FailureReason } from '../plugins/plugin-worker.js';
import type { PluginInfo, PluginRegistry } from '../plugins/registry.js';
import { availability } from './availability.js';
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
import { resolveConfigured, type ResolveTarget, type SlotScope } from './resolve.js';

export interface Fallback {
  reason: FailureReason;
  detail: string;
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

/** Spec 3.3: a failed sandbox plugin refuses the command instead of running it unsandboxed. */
export class SandboxRefusedError extends PepeError {
  constructor(readonly occupant: string, readonly fallback: Fallback, readonly durationMs: number) {
    super(`the sandbox "${occupant}" failed (${fallback.reason}: ${fallback.detail}); the command was refused, not run outside the sandbox`);
  }
}

/** Spec 3.3: a harness plugin's failure is the turn's error; it is never re-run by the built-in. */
export class HarnessFailedError extends PepeError {
  constructor(readonly occupant: string, readonly fallback: Fallback) {
    super(`the harness "${occupant}" failed (${fallback.reason}): ${fallback.detail}`);
  }
}

export interface SlotStatus {
  slot: SlotName;
  configured: string | null;
  /** What answers now: the plugin name, or "builtin". */
  occupant: string;
  status: 'ok' | 'default-instead';
  reason: string | null;
  scope: SlotScope | null;
  default: 'builtin';
  fallbacks: { count: number; lastReason: string | null; lastAt: string | null };
}

export interface SlotServiceDeps {
  config: () => PepeConfig;
  registry: PluginRegistry;
  log: EventLog;
}

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
    const plugins = await this.deps.registry.list();
    const history = this.fallbackHistory();
    return (Object.keys(SLOT_RESULTS) as SlotName[]).map((slot) => {
      const { configured, scope } = resolveConfigured(this.deps.config(), slot, target);
      const h = history.get(`${slot}\u0000${configured ?? 'builtin'}`) ?? { count: 0, lastReason: null, lastAt: null };
      if (!configured) return { slot, configured, occupant: 'builtin', status: 'ok', reason: null, scope, default: 'builtin', fallbacks: h };
      const a = availability(slot, configured, plugins);
      return a.ok
        ? { slot, configured, occupant: configured, status: 'ok', reason: null, scope, default: 'builtin', fallbacks: h }
        : { slot, configured, occupant: 'builtin', status: 'default-instead', reason: a.reason, scope, default: 'builtin', fallbacks: h };
    });
  }

  /** Count and last reason of recorded fallbacks per slot and occupant. */
  private fallbackHistory(): Map<string, SlotStatus['fallbacks']> {
    const out = new Map<string, SlotStatus['fallbacks']>();
    for (const e of this.deps.log.readAll()) {
      if (e.kind !== 'slot_fallback') continue;
      const key = `${e.slot}\u0000${e.occupant}`;
      const prev = out.get(key) ?? { count: 0, lastReason: null, lastAt: null };
      out.set(key, { count: prev.count + 1, lastReason: `${e.reason}: ${e.detail}`, lastAt: e.ts });
    }
    return out;
  }

  // ---- the slots, as the runtime calls them ----

  memorySearch(agent: string, query: string, opts: { limit?: number; mode?: 'keyword' | 'vector' | 'hybrid' }, builtin: () => Promise<MemoryHit[]>): Promise<SlotAnswer<MemoryHit[]>> {
    return this.answer('memory', { agent }, [agent, query, opts], builtin);
  }

  webSearch(agent: string | null, query: string, opts: { limit?: number }, builtin: () => Promise<WebHit[]>): Promise<SlotAnswer<WebHit[]>> {
    return this.answer('web_search', { agent }, [query, opts], builtin);
  }

  /** Throws SandboxRefusedError when a configured sandbox plugin fails or is unavailable. */
  sandboxRun(
    agent: string | null,
    program: string,
    argv: string[],
    opts: { cwd: string; env: Record<string, string>; timeoutMs: number },
    builtin: () => Promise<SandboxResult>,
  ): Promise<SlotAnswer<SandboxResult>> {
    // The call's own timeout is the real deadline; the slot's ceiling is only a safety net.
    const deadline = Math.min(opts.timeoutMs + 2_000, this.deadlineMs('sandbox'));
    return this.answer('sandbox', { agent }, [program, argv, opts], builtin, { deadlineMs: deadline });
  }

  modelChain(agent: string, agentConfig: object, usageTiers: Record<string, string>, builtin: () => Promise<ModelRef[]>): Promise<SlotAnswer<ModelRef[]>> {
    return this.answer('model_select', { agent }, [{ name: agent, ...agentConfig }], builtin, { usageTiers });
  }

  heartbeatAllowed(agent: string | null, project: string | null, usageTiers: Record<string, string>, builtin: () => Promise<boolean>): Promise<SlotAnswer<boolean>> {
    return this.answer('heartbeat_interval', { agent, project }, [project], builtin, { usageTiers });
  }

  compact(
    agent: string | null,
    args: { messages: Message[]; model: ModelRef; agentConfig: object | null; sessionKey: string | null },
    builtin: () => Promise<Message[]>,
  ): Promise<SlotAnswer<Message[]>> {
    const agentArg = args.agentConfig && agent ? { name: agent, ...args.agentConfig } : null;
    return this.answer('compaction', { agent }, [args.messages, args.model, agentArg, args.sessionKey], builtin);
  }

  /**
   * The harness plugin configured for this agent, loaded in-process (spec 3.3: it must call back
   * into the barrier), or null for the built-in loop. A configured harness that cannot be loaded
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
    return { name: configured, plugin: (await this.deps.registry.loadInProcess(a.plugin)) as unknown as HarnessPlugin };
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
    extra: { deadlineMs?: number; usageTiers?: Record<string, string> } = {},
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
      const raw = await this.callPlugin(a.plugin, SLOT_FUNCTION[slot], args, extra.deadlineMs ?? this.deadlineMs(slot), extra.usageTiers);
      const parsed = SLOT_RESULTS[slot].safeParse(raw);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw new PluginCallError('malformed', `result does not match the ${slot} contract: ${first ? `${first.path.join('.') || 'result'}: ${first.message}` : 'invalid'}`);
      }
      return { slot, occupant: configured, answeredBy: configured, fallback: null, durationMs: performance.now() - started, result: parsed.data as SlotResult<S> };
    } catch (e) {
      fallback = e instanceof PluginCallError ? { reason: e.reason, detail: e.detail } : { reason: 'error', detail: errorMessage(e) };
    }
    const agent = target.agent ?? null;
    const policy = FAILURE_POLICY[slot];
    if (policy === 'refuse') {
      const durationMs = performance.now() - started;
      this.record(slot, configured, agent, fallback, durationMs, 'refused');
      throw new SandboxRefusedError(configured, fallback, durationMs);
    }
    if (policy === 'error') {
      this.record(slot, configured, agent, fallback, performance.now() - started, 'error');
      throw new HarnessFailedError(configured, fallback);
    }
    this.record(slot, configured, agent, fallback, performance.now() - started, 'builtin');
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
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          Promise.resolve().then(() => (f as (...a: unknown[]) => unknown).apply(p, callArgs)),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new PluginCallError('timeout', `no answer within ${deadlineMs} ms`)), deadlineMs);
          }),
        ]);
      } catch (e) {
        throw e instanceof PluginCallError ? e : new PluginCallError('error', errorMessage(e));
      } finally {
        clearTimeout(timer);
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
