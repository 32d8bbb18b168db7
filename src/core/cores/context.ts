import type { Message } from '../messages.js';
import { grants } from './capabilities.js';
import { childRequest } from './child-options.js';
import type { CoreHost, SlotRef } from './host.js';
import type { LoadedSlot } from './loaded-core.js';
import { HISTORY_POLICIES, PLACEMENTS, type HistoryPolicy, type Placement } from './manifest.js';
import { isRuntimeRecord } from './history-policy.js';
import type { ScopeState } from './state.js';
import { jsonCopy } from './state.js';
import type {
  BootstrapContext,
  CapabilityClient,
  HistoryMessage,
  InputContext,
  JsonValue,
  OutputContext,
  SlotContext,
  SlotGroup,
  TurnInfo,
} from './sdk-types.js';

/** Context a slot added to the prompt (input phase). */
export interface ContextItem {
  role: 'system' | 'user';
  text: string;
  slotId: string;
  placement: Placement;
  historyPolicy: HistoryPolicy;
}

/** Text an output slot sent. */
export interface SentText {
  text: string;
  slotId: string;
  historyPolicy: HistoryPolicy;
  /** Shown to the user; false = only recorded per historyPolicy. */
  visible: boolean;
}

/** What one slot did that only counts if it succeeds (it is discarded when the slot fails). */
export interface SlotEffects {
  bootstrap: string[];
  context: ContextItem[];
  sent: SentText[];
  result: { value: JsonValue | null } | null;
  skills: string[];
}

export const noEffects = (): SlotEffects => ({ bootstrap: [], context: [], sent: [], result: null, skills: [] });

/** A slot asked for a capability its slot.yaml does not declare. */
export class CapabilityError extends Error {
  constructor(readonly slot: LoadedSlot, readonly capability: string) {
    super(
      `${slot.phase} slot "${slot.id}" needs the capability "${capability}": add it to "capabilities:" in ${slot.manifestFile}`,
    );
    this.name = 'CapabilityError';
  }
}

/** A slot did something its group or phase may not do (a parallel slot changing the prompt, …). */
export class SlotRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlotRuleError';
  }
}

export interface SlotEnv {
  host: CoreHost;
  slot: LoadedSlot;
  group: SlotGroup;
  signal: AbortSignal;
  /** Throws once the slot has been stopped (timeout, cancellation) or has returned. */
  assertAlive: () => void;
  effects: SlotEffects;
}

export interface TurnEnv {
  turn: TurnInfo;
  history: readonly Message[];
  state: { session: ScopeState; core: ScopeState };
  /** The turn's result as committed by earlier slots. */
  result: () => JsonValue | null;
}

function capabilityClient(env: SlotEnv): CapabilityClient {
  return {
    can: (cap) => {
      env.assertAlive();
      return typeof cap === 'string' && grants(env.slot.manifest.capabilities, cap);
    },
    require: (cap) => {
      env.assertAlive();
      if (typeof cap !== 'string' || !grants(env.slot.manifest.capabilities, cap)) throw new CapabilityError(env.slot, String(cap));
    },
  };
}

function base(env: SlotEnv) {
  return {
    sessionId: env.host.sessionId,
    slotId: env.slot.id,
    slotPath: env.slot.dir,
    phase: env.slot.phase,
    group: env.group,
    workspace: env.host.workspace,
    capability: capabilityClient(env),
    signal: env.signal,
  };
}

function need(env: SlotEnv, cap: string): void {
  env.assertAlive();
  if (!grants(env.slot.manifest.capabilities, cap)) throw new CapabilityError(env.slot, cap);
}

function unavailable(target: object, names: string[], why: string): void {
  for (const name of names) {
    Object.defineProperty(target, name, {
      enumerable: false,
      get: () => {
        throw new SlotRuleError(`ctx.${name} is not available ${why}`);
      },
    });
  }
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`${what}: expected a string, got ${value === null ? 'null' : typeof value}`);
  return value;
}

export function bootstrapContext(env: SlotEnv): BootstrapContext {
  const ctx = {
    ...base(env),
    phase: 'bootstrap' as const,
    bootstrap: {
      add: (t: string) => {
        env.assertAlive();
        env.effects.bootstrap.push(text(t, 'ctx.bootstrap.add'));
      },
    },
  };
  unavailable(ctx, ['turn', 'history', 'state', 'tools', 'agents', 'skills', 'result', 'input', 'output'], 'to bootstrap slots: bootstrap runs once per session, before any turn');
  return ctx;
}

function turnClients(env: SlotEnv, turnEnv: TurnEnv) {
  const ref: SlotRef = { phase: env.slot.phase, slotId: env.slot.id };
  const stateCheck = (scope: 'session' | 'core') => (write: boolean) => need(env, `state.${scope}.${write ? 'write' : 'read'}`);
  return {
    turn: structuredClone(turnEnv.turn),
    history: {
      recentMessages: (limit = 20, options?: { roles?: HistoryMessage['role'][] }): HistoryMessage[] => {
        need(env, 'history.read');
        if (!Number.isInteger(limit) || limit < 0) throw new TypeError('ctx.history.recentMessages: limit must be a whole number ≥ 0');
        const roles = options?.roles;
        const picked = turnEnv.history.filter((m) => !isRuntimeRecord(m) && (!roles || roles.includes(m.role)));
        return (limit === 0 ? [] : picked.slice(-limit)).map((m) => ({ role: m.role, content: m.content, ...(m.role === 'tool' ? { name: m.name } : {}) }));
      },
    },
    state: {
      session: turnEnv.state.session.store(stateCheck('session')),
      core: turnEnv.state.core.store(stateCheck('core')),
    },
    tools: {
      call: async (name: string, args: Record<string, unknown> = {}) => {
        text(name, 'ctx.tools.call');
        need(env, `tool.call:${name}`);
        if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new TypeError('ctx.tools.call: arguments must be an object');
        const out = await env.host.callTool(name, jsonCopy(args, 'ctx.tools.call arguments') as Record<string, unknown>, ref);
        env.assertAlive();
        return { content: String(out.content), isError: !!out.isError };
      },
    },
    agents: {
      run: async (agent: string, t: string, options?: unknown) => {
        const request = childRequest(agent, t, options, ref);
        need(env, `agents.run:${request.agent}`);
        const out = await env.host.runAgent(request, env.signal);
        env.assertAlive();
        return out;
      },
      spawn: (agent: string, t: string, options?: unknown) => {
        const request = childRequest(agent, t, options, ref);
        need(env, `agents.spawn:${request.agent}`);
        return env.host.spawnAgent(request);
      },
    },
    result: {
      get value() {
        env.assertAlive();
        const own = env.effects.result;
        return jsonCopy(own ? own.value : turnEnv.result(), 'ctx.result.value');
      },
      set: (value: JsonValue) => {
        env.assertAlive();
        if (env.slot.phase !== 'output') throw new SlotRuleError(`${env.slot.phase} slot "${env.slot.id}" cannot set the result: only serial output slots can (ctx.result.set)`);
        if (env.group === 'parallel') {
          throw new SlotRuleError(`parallel output slot "${env.slot.id}" cannot change the result (ctx.result.set); move it to output.serial in pipelines.yaml`);
        }
        env.effects.result = { value: jsonCopy(value ?? null, 'ctx.result.set') };
      },
    },
  };
}

export function inputContext(env: SlotEnv, turnEnv: TurnEnv, rawText: string): InputContext {
  const parallel = env.group === 'parallel';
  const ctx = {
    ...base(env),
    phase: 'input' as const,
    ...turnClients(env, turnEnv),
    input: {
      rawText,
      addContext: (t: string, options?: { role?: unknown; placement?: unknown; historyPolicy?: unknown }) => {
        env.assertAlive();
        if (parallel) {
          throw new SlotRuleError(`parallel input slot "${env.slot.id}" cannot change the prompt (ctx.input.addContext); move it to input.serial in pipelines.yaml`);
        }
        const role = options?.role ?? 'system';
        if (role !== 'system' && role !== 'user') throw new TypeError(`ctx.input.addContext: role must be 'system' or 'user', got ${JSON.stringify(role)}`);
        const placement = options?.placement ?? env.slot.manifest.default_placement;
        if (!(PLACEMENTS as readonly unknown[]).includes(placement)) throw new TypeError(`ctx.input.addContext: placement must be one of ${PLACEMENTS.join(', ')}`);
        const historyPolicy = options?.historyPolicy ?? env.slot.manifest.history_policy;
        if (!(HISTORY_POLICIES as readonly unknown[]).includes(historyPolicy)) throw new TypeError(`ctx.input.addContext: historyPolicy must be one of ${HISTORY_POLICIES.join(', ')}`);
        env.effects.context.push({ role, text: text(t, 'ctx.input.addContext'), slotId: env.slot.id, placement: placement as Placement, historyPolicy: historyPolicy as HistoryPolicy });
      },
    },
    skills: {
      activate: async (name: string) => {
        text(name, 'ctx.skills.activate');
        need(env, `skill.activate:${name}`);
        if (parallel) throw new SlotRuleError(`parallel input slot "${env.slot.id}" cannot change the prompt (ctx.skills.activate); move it to input.serial in pipelines.yaml`);
        await env.host.activateSkill(name, { phase: env.slot.phase, slotId: env.slot.id });
        env.assertAlive();
        env.effects.skills.push(name);
      },
    },
  };
  unavailable(ctx, ['output', 'bootstrap'], 'to input slots');
  return ctx;
}

export function outputContext(env: SlotEnv, turnEnv: TurnEnv, responseText: string, live: { progress: (t: string) => void; notice: (t: string) => void }): OutputContext {
  const parallel = env.group === 'parallel';
  const ctx = {
    ...base(env),
    phase: 'output' as const,
    ...turnClients(env, turnEnv),
    output: {
      responseText,
      sendText: (t: string, options?: { historyPolicy?: unknown; visible?: unknown }) => {
        env.assertAlive();
        const historyPolicy = options?.historyPolicy ?? (parallel ? 'transient' : env.slot.manifest.history_policy);
        if (!(HISTORY_POLICIES as readonly unknown[]).includes(historyPolicy)) throw new TypeError(`ctx.output.sendText: historyPolicy must be one of ${HISTORY_POLICIES.join(', ')}`);
        if (parallel && historyPolicy !== 'transient') {
          throw new SlotRuleError(
            `parallel output slot "${env.slot.id}" cannot write session history (ctx.output.sendText with historyPolicy "${String(historyPolicy)}"); send with {historyPolicy: 'transient'} or move it to output.serial in pipelines.yaml`,
          );
        }
        const visible = options?.visible ?? true;
        if (typeof visible !== 'boolean') throw new TypeError('ctx.output.sendText: visible must be true or false');
        env.effects.sent.push({ text: text(t, 'ctx.output.sendText'), slotId: env.slot.id, historyPolicy: historyPolicy as HistoryPolicy, visible });
      },
      progress: (t: string) => {
        env.assertAlive();
        live.progress(text(t, 'ctx.output.progress'));
      },
      notice: (t: string) => {
        env.assertAlive();
        live.notice(text(t, 'ctx.output.notice'));
      },
    },
  };
  unavailable(ctx, ['input', 'skills', 'bootstrap'], 'to output slots');
  return ctx;
}

export type { SlotContext };
