import type { Message } from '../messages.js';
import { capabilityAdvice, grants } from './capabilities.js';
import { childRequest } from './child-options.js';
import type { CoreHost, SlotRef } from './host.js';
import type { ContextItem, SentText } from './items.js';
import type { LoadedSlot } from './loaded-core.js';
import { HISTORY_POLICIES, PLACEMENTS, type HistoryPolicy, type Placement } from './manifest.js';
import { isModelHidden, isRuntimeRecord, CORE_SLOT_FIELD } from './history-policy.js';
import { mergeResult, strictJson } from './json-values.js';
import type { ScopeState } from './state.js';
import { jsonCopy } from './state.js';
import type {
  Attachment,
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

export type { ContextItem, SentText };

/** What one slot did that only counts if it succeeds (it is discarded when the slot fails). */
export interface SlotEffects {
  bootstrap: string[];
  context: ContextItem[];
  sent: SentText[];
  result: { value: JsonValue | null } | null;
  skills: string[];
}

export const noEffects = (): SlotEffects => ({ bootstrap: [], context: [], sent: [], result: null, skills: [] });

/** The capabilities a slot holds: its slot.yaml's, plus the core's agent.yaml grants for it. */
export const slotGrants = (slot: LoadedSlot): readonly string[] => slot.grants ?? slot.manifest.capabilities;

/** A slot asked for a capability it was not granted. */
export class CapabilityError extends Error {
  /** `narrower`: a capability that would do too (a grant for one state key). */
  constructor(readonly slot: LoadedSlot, readonly capability: string, narrower?: string) {
    super(
      `${slot.phase} slot "${slot.id}" needs the capability "${capability}"${narrower ? ` (or "${narrower}" for this key only)` : ''}: ${capabilityAdvice(capability, slot.manifestFile)}`,
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

/** Live output (progress, notices, input deliveries): shown as it happens, never history. */
export interface LiveChannel {
  progress: (text: string) => void;
  notice: (text: string) => void;
}

export interface SlotEnv {
  host: CoreHost;
  slot: LoadedSlot;
  group: SlotGroup;
  signal: AbortSignal;
  /** Throws once the slot has been stopped (timeout, cancellation) or has returned. */
  assertAlive: () => void;
  effects: SlotEffects;
  core: { revision: string; skills: Record<string, string> };
  live: LiveChannel;
}

export interface TurnEnv {
  turn: TurnInfo;
  history: readonly Message[];
  state: { session: ScopeState; core: ScopeState };
  /** The turn's result as committed by earlier slots. */
  result: () => JsonValue | null;
  attachments: readonly Attachment[];
}

function capabilityClient(env: SlotEnv): CapabilityClient {
  return {
    can: (cap) => {
      env.assertAlive();
      return typeof cap === 'string' && grants(slotGrants(env.slot), cap);
    },
    require: (cap) => {
      env.assertAlive();
      if (typeof cap !== 'string' || !grants(slotGrants(env.slot), cap)) throw new CapabilityError(env.slot, String(cap));
    },
  };
}

function base(env: SlotEnv) {
  return {
    sessionId: env.host.sessionId,
    slotId: env.slot.id,
    slotPath: env.slot.slotPath ?? env.slot.dir,
    slotDir: env.slot.dir,
    coreId: env.host.agent,
    coreRevision: env.core.revision,
    phase: env.slot.phase,
    group: env.group,
    workspace: env.host.workspace,
    capability: capabilityClient(env),
    signal: env.signal,
  };
}

function need(env: SlotEnv, cap: string): void {
  env.assertAlive();
  if (!grants(slotGrants(env.slot), cap)) throw new CapabilityError(env.slot, cap);
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

/** Empty or blank text is ignored everywhere (as upstream): nothing is added, nothing is shown. */
const blank = (t: string) => t.trim() === '';

export function bootstrapContext(env: SlotEnv): BootstrapContext {
  const ctx = {
    ...base(env),
    phase: 'bootstrap' as const,
    bootstrap: {
      add: (t: string) => {
        env.assertAlive();
        const s = text(t, 'ctx.bootstrap.add');
        if (!blank(s)) env.effects.bootstrap.push(s);
      },
    },
  };
  unavailable(ctx, ['turn', 'history', 'state', 'tools', 'agents', 'skills', 'result', 'input', 'output'], 'to bootstrap slots: bootstrap runs once per session, before any turn');
  return ctx;
}

/** A transcript message as a slot sees it: no runtime fields, its metadata in SDK names. */
function summary(m: Message): HistoryMessage {
  const raw = m as Record<string, unknown>;
  const out: HistoryMessage = { role: m.role, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content), modelVisible: !isModelHidden(m) };
  if (m.role === 'tool') {
    out.name = m.name;
    if (typeof raw.tool_call_id === 'string') out.toolCallId = raw.tool_call_id;
  }
  if (typeof raw.turnId === 'string') out.turnId = raw.turnId;
  if (typeof raw[CORE_SLOT_FIELD] === 'string') out.slotId = raw[CORE_SLOT_FIELD] as string;
  return out;
}

function turnClients(env: SlotEnv, turnEnv: TurnEnv) {
  const ref: SlotRef = { phase: env.slot.phase, slotId: env.slot.id };
  const stateCheck = (scope: 'session' | 'core') => (write: boolean, key?: string) => {
    env.assertAlive();
    const generic = `state.${scope}.${write ? 'write' : 'read'}`;
    const wanted = key === undefined ? generic : `${generic}:${key}`;
    if (!grants(slotGrants(env.slot), wanted)) throw new CapabilityError(env.slot, generic, key === undefined ? undefined : wanted);
  };
  return {
    turn: structuredClone(turnEnv.turn),
    history: {
      // Reading the session's own history needs no capability (as upstream).
      recentMessages: (limit = 20, options?: { roles?: HistoryMessage['role'][] }): HistoryMessage[] => {
        env.assertAlive();
        if (typeof limit !== 'number' || Number.isNaN(limit)) throw new TypeError('ctx.history.recentMessages: limit must be a number');
        if (limit <= 0) return [];
        const roles = options?.roles ?? ['user', 'assistant', 'tool'];
        const picked = turnEnv.history.filter((m) => !isRuntimeRecord(m) && roles.includes(m.role));
        return picked.slice(-Math.floor(limit)).map(summary);
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
        const checked = strictJson(value === undefined ? null : value, 'ctx.result.set');
        const current = env.effects.result ? env.effects.result.value : turnEnv.result();
        env.effects.result = { value: mergeResult(current, checked) };
      },
    },
  };
}

function liveClients(env: SlotEnv, phase: 'input' | 'output') {
  return {
    progress: (t: string) => {
      env.assertAlive();
      const s = text(t, `ctx.${phase}.progress`);
      if (!blank(s)) env.live.progress(s);
    },
    notice: (t: string) => {
      env.assertAlive();
      const s = text(t, `ctx.${phase}.notice`);
      if (!blank(s)) env.live.notice(s);
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
      attachments: structuredClone(turnEnv.attachments),
      addContext: (t: string, options?: { role?: unknown; placement?: unknown; historyPolicy?: unknown }) => {
        env.assertAlive();
        if (parallel) {
          throw new SlotRuleError(`parallel input slot "${env.slot.id}" cannot change the prompt (ctx.input.addContext); move it to input.serial in pipelines.yaml`);
        }
        const role = options?.role ?? 'system';
        if (role !== 'system' && role !== 'user') throw new TypeError(`ctx.input.addContext: role must be 'system' or 'user', got ${JSON.stringify(role)}`);
        const placement = options?.placement ?? env.slot.manifest.default_placement;
        if (!(PLACEMENTS as readonly unknown[]).includes(placement)) throw new TypeError(`ctx.input.addContext: placement must be one of ${PLACEMENTS.join(', ')}`);
        // System context is for this turn unless asked otherwise (as upstream): a per-turn hint
        // written to history would repeat in every later prompt.
        const historyPolicy = options?.historyPolicy ?? (role === 'system' ? 'transient' : env.slot.manifest.history_policy);
        if (!(HISTORY_POLICIES as readonly unknown[]).includes(historyPolicy)) throw new TypeError(`ctx.input.addContext: historyPolicy must be one of ${HISTORY_POLICIES.join(', ')}`);
        const s = text(t, 'ctx.input.addContext');
        if (blank(s)) return;
        env.effects.context.push({ role, text: s, slotId: env.slot.id, placement: placement as Placement, historyPolicy: historyPolicy as HistoryPolicy });
      },
      sendText: (t: string, options?: { visible?: unknown; historyPolicy?: unknown }) => {
        env.assertAlive();
        const policy = options?.historyPolicy ?? 'transient';
        if (policy !== 'transient') {
          throw new SlotRuleError(`ctx.input.sendText: input slots send transient text only (the answer is not there yet to place it in history); got historyPolicy ${JSON.stringify(policy)}`);
        }
        const visible = options?.visible ?? true;
        if (typeof visible !== 'boolean') throw new TypeError('ctx.input.sendText: visible must be true or false');
        const s = text(t, 'ctx.input.sendText');
        if (!blank(s)) env.effects.sent.push({ text: s, slotId: env.slot.id, historyPolicy: 'transient', visible });
      },
      ...liveClients(env, 'input'),
    },
    skills: {
      activate: async (name: string) => {
        text(name, 'ctx.skills.activate');
        need(env, `skill.activate:${name}`);
        if (parallel) throw new SlotRuleError(`parallel input slot "${env.slot.id}" cannot change the prompt (ctx.skills.activate); move it to input.serial in pipelines.yaml`);
        const known = await env.host.activateSkill(name, { phase: env.slot.phase, slotId: env.slot.id }, env.core.skills[name]);
        env.assertAlive();
        // An unknown skill is ignored after the request is recorded (as upstream), with a notice.
        if (known === false) env.live.notice(`skill "${name}" is unknown (not in the core's agent/skills/ nor Pepe's); ignored`);
        else env.effects.skills.push(name);
      },
    },
  };
  unavailable(ctx, ['output', 'bootstrap'], 'to input slots');
  return ctx;
}

export function outputContext(env: SlotEnv, turnEnv: TurnEnv, responseText: string): OutputContext {
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
        const s = text(t, 'ctx.output.sendText');
        if (!blank(s)) env.effects.sent.push({ text: s, slotId: env.slot.id, historyPolicy: historyPolicy as HistoryPolicy, visible });
      },
      ...liveClients(env, 'output'),
    },
  };
  unavailable(ctx, ['input', 'skills', 'bootstrap'], 'to output slots');
  return ctx;
}

export type { SlotContext };
