import { realpath } from 'node:fs/promises';
import { errorMessage } from '../errors.js';
import { markOutsideContent, type RunPermissionState } from '../permissions/run-state.js';
import { type BarrierOutcome } from '../permissions/approval.js';
import { type PermissionBarrier } from '../permissions/barrier.js';
import { type RiskKind } from '../permissions/risk.js';
import { classifyTool } from '../permissions/tool-classes.js';
import { RedactorCache } from '../secrets/redactor-cache.js';
import { secretValues } from '../secrets/scrub.js';
import { restrictedRefusal } from '../permissions/restricted.js';
import { ToolRefusal, type Tool, type ToolContext, type ToolFacts } from '../tools/tool.js';

/**
 * The one way a tool call runs (issue 11), for every caller: the built-in loop, an agent core's
 * `ctx.tools.call`, and the replay of a parked call a person approved later.
 *
 *   validate (zod) → resolve (what the call touches: `Tool.resolve`) → barrier (shown those
 *   facts) → execute (with those facts and a per-call context) → result
 *
 * The facts the barrier judged are the facts the tool runs with, so a person approves exactly
 * where a command runs; a parked call keeps them and its replay refuses to run anywhere else.
 */

/** Whether the sandbox confines commands right now (passed to the barrier). */
export type SandboxConfinement = { confined: boolean; reason?: string };

export interface InvokeEnv {
  /** The turn's context; the invoker adds `facts` and `allowNetwork` per call. */
  context: ToolContext;
  barrier: PermissionBarrier;
  run: RunPermissionState;
  sandbox: () => Promise<SandboxConfinement>;
  /** Called after every call, whatever its end: the runtime keeps the run's taint in its conversation. */
  afterCall?: () => void;
  /** The person's and accepted workspace hooks (issue 24); absent: none. */
  hooks?: ToolHooks;
}

/**
 * Hooks around a call. They can only tighten: before, deny or ask (the barrier then asks even
 * what it would have allowed on its own); after, add context or mark the result as outside content.
 */
export interface ToolHooks {
  before(call: { id: string; name: string; args: unknown; cwd: string }, signal: AbortSignal): Promise<{ kind: 'none' } | { kind: 'deny' | 'ask'; reason: string }>;
  after(call: { id: string; name: string; args: unknown; cwd: string; content: string; isError: boolean }, signal: AbortSignal): Promise<{ context: string[]; outsideContent: boolean; markedBy: string[] }>;
}

export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: unknown;
}

/** A call a person already approved (a parked call): the barrier judges it again against what they were shown. */
export interface ApprovedReplay {
  /** The parked call's id. */
  id: string;
  /** The directory the person was shown. */
  cwd: string;
  /** The facts stored with the parked call, when the barrier kept them. */
  facts?: ToolFacts;
  /** Risk kinds shown to the person when they approved. */
  risks: readonly RiskKind[];
  /** Programs the command ran by name when they approved. */
  programs?: readonly string[];
}

export type InvokeStage = 'unknown_tool' | 'invalid_arguments' | 'loop_guard' | 'refused' | 'not_allowed' | 'ran' | 'failed' | 'cancelled';

export interface InvokeResult {
  content: string;
  isError: boolean;
  untrusted: boolean;
  stage: InvokeStage;
  /** What the call was judged on (absent when it never got that far). */
  facts?: ToolFacts;
  outcome?: BarrierOutcome;
}

export interface InvokeOptions {
  /** Checked after validation, before the barrier: a message stops the call (the loop guard). */
  guard?: (name: string, args: unknown) => string | null;
  /** Replay of a parked call a person approved. */
  approved?: ApprovedReplay;
}

/** One for the process: the secret values rarely change between calls (issue 27). */
const maskers = new RedactorCache();

const fail = (stage: InvokeStage, content: string, extra: Partial<InvokeResult> = {}): InvokeResult => ({ content, isError: true, untrusted: false, stage, ...extra });

/**
 * Validate, resolve, ask the barrier, run. What comes back goes to the model (and to every
 * caller: the turn loop, an agent core's tool calls, a parked call's replay), so it is masked
 * here (spec 8): known secret values and credential shapes (`cat .env`, a private key, a token).
 */
export async function invokeTool(tools: ReadonlyMap<string, Tool<any>>, call: ToolCallRequest, env: InvokeEnv, options: InvokeOptions = {}): Promise<InvokeResult> {
  try {
    const r = await invokeOnce(tools, call, env, options);
    // A result marked untrusted is outside content even if its tool forgot to say so (spec 5.3).
    if (r.untrusted && !env.run.tookInOutsideContent) markOutsideContent(env.run, call.name);
    const masker = maskers.get(secretValues(env.context.env, env.context.config));
    return { ...r, content: masker.text(r.content) };
  } finally {
    env.afterCall?.();
  }
}

async function invokeOnce(tools: ReadonlyMap<string, Tool<any>>, call: ToolCallRequest, env: InvokeEnv, options: InvokeOptions): Promise<InvokeResult> {
  const tool = tools.get(call.name);
  if (!tool) return fail('unknown_tool', `unknown tool "${call.name}"; the tools available are: ${[...tools.keys()].join(', ') || 'none'}`);
  // Restricted Mode: refused before anything is resolved or asked (no prompt, no terminal).
  const restricted = restrictedRefusal(call.name, env.context.workspaceTrusted !== false);
  if (restricted) return fail('refused', restricted);
  const parsed = tool.input.safeParse(call.arguments);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    return fail('invalid_arguments', `invalid arguments for ${call.name}: ${detail}`);
  }
  const tripped = options.guard?.(call.name, parsed.data) ?? null;
  if (tripped) return fail('loop_guard', tripped);

  const base = env.context;
  let facts: ToolFacts;
  try {
    facts = tool.resolve ? await tool.resolve(parsed.data, base) : {};
  } catch (e) {
    if (e instanceof ToolRefusal) return fail('refused', `refused: ${e.message}`);
    return fail('failed', `${call.name} failed: ${errorMessage(e)}`);
  }
  // The directory shown to the person: where a command runs, else the workspace the paths are in.
  const cwd = facts.cwd ?? base.workspace;

  // Before-tool hooks, before the barrier decides: a deny stops the call, an ask makes the barrier ask.
  const hook = env.hooks ? await env.hooks.before({ id: call.id, name: call.name, args: parsed.data, cwd }, base.signal) : { kind: 'none' as const };
  if (hook.kind === 'deny') return fail('not_allowed', `Denied by a hook: ${hook.reason}`, { facts });

  // A parked call's replay is judged again (spec 5.4): its approval covers it only where nothing
  // changed since; otherwise it is a new call, asked (or parked again) like any other. A hook's
  // "ask" on such a replay is answered by the person's approval; its "deny" still stands (above).
  const approved = options.approved;
  const changed = approved ? await changedSinceApproval(approved, cwd, facts) : null;
  const outcome = await env.barrier.check({
    agent: base.agent,
    agentConfig: base.agentConfig,
    chain: base.chain,
    tool: call.name,
    args: call.arguments,
    cwd,
    facts,
    sandbox: await env.sandbox(),
    run: env.run,
    toolCallId: call.id,
    signal: base.signal,
    workspace: base.workspace,
    ...(approved && !changed ? { approved: { id: approved.id, risks: approved.risks, programs: approved.programs ?? [] } } : {}),
    ...(hook.kind === 'ask' && !approved ? { hookAsk: hook.reason } : {}),
  });
  if (!outcome.allowed) {
    const why = approved ? `Not run as approved: judged again now, ${changed ? `what it touches changed since it was approved (${changed})` : 'it carries more than what was approved'}. ` : '';
    return fail('not_allowed', why + outcome.reason, { facts, outcome });
  }
  // Only a call approved with its "network" risk shown gets the network.
  const allowNetwork = outcome.risks.includes('network');

  const ctx: ToolContext = { ...base, facts, allowNetwork };
  // The turn's checkpoint, right before its first call that may change files runs.
  if (base.beforeChange && classifyTool(call.name).kind !== 'free') await base.beforeChange();
  try {
    const r = await tool.execute(parsed.data, ctx);
    const ran: InvokeResult = { content: r.content, isError: !!r.isError, untrusted: !!r.untrusted, stage: 'ran', facts, outcome };
    return env.hooks ? await afterHooks(env.hooks, call, parsed.data, cwd, ran, base) : ran;
  } catch (e) {
    if (base.signal.aborted) return fail('cancelled', 'cancelled by the user while running', { facts });
    return fail('failed', `${call.name} failed: ${errorMessage(e)}`, { facts });
  }
}

/** After-tool hooks add context to the result, or mark it as outside content (never less than the tool said). */
async function afterHooks(hooks: ToolHooks, call: ToolCallRequest, args: unknown, cwd: string, ran: InvokeResult, base: ToolContext): Promise<InvokeResult> {
  const after = await hooks.after({ id: call.id, name: call.name, args, cwd, content: ran.content, isError: ran.isError }, base.signal);
  if (after.outsideContent) base.markOutsideContent(`result of ${call.name}, marked by ${after.markedBy.join(', ')}`);
  const content = after.context.length ? `${ran.content}\n\n[hook context]\n${after.context.join('\n')}` : ran.content;
  return { ...ran, content, untrusted: ran.untrusted || after.outsideContent };
}

/**
 * A parked call runs only where it was approved: the directory (followed to its real path again
 * now, so a link swapped in since does not move it) and any stored path facts must match.
 */
async function changedSinceApproval(approved: ApprovedReplay, cwd: string, facts: ToolFacts): Promise<string | null> {
  if (cwd !== approved.cwd) return `directory approved: ${approved.cwd}; now: ${cwd}`;
  if (facts.cwd) {
    const real = await realpath(facts.cwd).catch(() => facts.cwd!);
    if (real !== approved.cwd) return `directory approved: ${approved.cwd}; now it leads to ${real}`;
  }
  const before = approved.facts?.paths;
  if (before) {
    const now = facts.paths ?? [];
    const key = (p: { real: string; access: string }) => `${p.access}\u0000${p.real}`;
    const a = before.map(key).sort();
    const b = now.map(key).sort();
    if (a.length !== b.length || a.some((k, i) => k !== b[i])) {
      return `files approved: ${before.map((p) => p.real).join(', ')}; now: ${now.map((p) => p.real).join(', ') || 'none'}`;
    }
  }
  return null;
}
