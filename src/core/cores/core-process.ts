import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { sandboxPolicy } from '../sandbox/index.js';
import { homedir } from 'node:os';
import { PluginCallError } from '../plugins/call-error.js';
import { NAMED_CAPABILITIES, PLAIN_CAPABILITIES } from './capabilities.js';
import { RemoteReturn } from './loaded-core.js';
import { CORE_HOST_SOURCE } from './core-host-source.js';
import { PluginHostProcess } from '../plugins/host-process.js';
import { confinedLauncher, osConfiner, pluginEnv, type PluginConfiner } from '../plugins/sandboxing.js';

/** Where and how an agent core's modules run out of process. */
export interface CoreIsolation {
  /** `$PEPE_HOME`: hidden from the modules; their data folder lives in it. */
  home: string;
  /** Pepe's environment; only the allow-list (and `expose`) reaches the modules. */
  env: Record<string, string | undefined>;
  expose?: readonly string[];
  confiner?: PluginConfiner;
  onOutput?: (text: string) => void;
}

/** One slot's module as the core process loads it. */
export interface RemoteSlot {
  file: string;
  exportName: string;
}

/** The ctx the runner built for a slot, as far as the remote side needs to read it. */
// Loosely typed on purpose: the ctx is walked by path names ('state.session.set').
type AnyCtx = Record<string, any>;

type CoreOp = { type: 'op'; path: string; args: unknown[] } | { type: 'rpc'; rpcId: number; path: string; args: unknown[] };

/** Paths a module may reach on the real ctx, and nothing else (a hostile module names them). */
const OPS = new Set([
  'bootstrap.add',
  'input.addContext',
  'input.sendText',
  'input.progress',
  'input.notice',
  'output.sendText',
  'output.progress',
  'output.notice',
  'result.set',
  'state.session.set',
  'state.session.merge',
  'state.session.append',
  'state.core.set',
  'state.core.merge',
  'state.core.append',
  'agents.spawn',
]);
const RPCS = new Set(['tools.call', 'agents.run', 'skills.activate', 'agents.wait']);

/**
 * An agent core's slot modules in their own process (spec 3.3, 7): one process per loaded core,
 * started on the first slot run. Each slot run is one call; the module's ctx operations come back
 * as messages and are applied, in order, to the real ctx the runner built, so every rule and
 * capability check of the SDK is the host's. When the runner stops a slot (its timeout_seconds,
 * a cancel), the process is ended at once, a synchronous loop included, and the next run starts
 * a fresh one.
 */
export class CoreProcess {
  /** One process per slot module: a slot stopped at its timeout takes no sibling down with it. */
  private readonly hosts = new Map<string, PluginHostProcess>();

  constructor(
    private readonly surfaceRoot: string,
    private readonly files: Record<string, string>,
    private readonly slots: Record<string, RemoteSlot>,
    private readonly isolation: CoreIsolation,
  ) {}

  private hostFor(key: string): PluginHostProcess {
    let host = this.hosts.get(key);
    if (host) return host;
    const { surfaceRoot, isolation } = this;
    const id = createHash('sha256').update(surfaceRoot).digest('hex').slice(0, 8);
    const dataDir = join(isolation.home, 'plugin-data', `core-${basename(join(surfaceRoot, '..')).replace(/[^A-Za-z0-9._-]/g, '_')}-${id}`);
    host = new PluginHostProcess(`${surfaceRoot}#${key}`, {
      source: CORE_HOST_SOURCE,
      init: { files: this.files, slots: { [key]: this.slots[key] }, surfaceRoot },
      version: id,
      dataDir,
      env: pluginEnv(isolation.env, isolation.expose ?? []),
      launch: confinedLauncher(isolation.confiner ?? osConfiner, () =>
        sandboxPolicy({ workspace: dataDir, pepeHome: isolation.home, home: homedir(), hostEnv: process.env, network: false, visible: [join(surfaceRoot, '..')], maxProcesses: 64 }),
      ),
      onOutput: isolation.onOutput,
      // The module files travel in the init message; a big core is allowed for.
      loadTimeoutMs: 10_000,
    });
    this.hosts.set(key, host);
    return host;
  }

  /** Starts every slot's process in the background, so a slot's first run does not pay the start. */
  warm(): void {
    for (const key of Object.keys(this.slots)) this.hostFor(key).load().catch(() => undefined);
  }

  /** The entrypoint the runner calls for one slot: runs it in the core process against `ctx`. */
  entry(key: string, manifest: { capabilities: string[]; manifestFile: string }): (ctx: AnyCtx) => Promise<unknown> {
    return (ctx) => this.run(key, ctx, manifest);
  }

  /** Resolves to a stand-in for what the module returned (so the runner can say it was ignored), or undefined. */
  private async run(key: string, ctx: AnyCtx, manifest: { capabilities: string[]; manifestFile: string }): Promise<unknown> {
    const host = this.hostFor(key);
    const spawned = new Map<string, { wait(): Promise<unknown> }>();
    let callId: number | null = null;
    let rejectFailed: (e: unknown) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => (rejectFailed = reject));
    failed.catch(() => undefined);
    let failure: unknown = null;
    // An operation the real ctx refused fails the slot now; the module's ctx goes dead (its later
    // operations throw there) but its process, possibly mid-way in other work, is left alone.
    const fail = (e: unknown) => {
      if (failure) return;
      failure = e;
      if (callId !== null) host.post({ type: 'abort', id: callId });
      rejectFailed(e);
    };
    const apply = (event: { type: string; [k: string]: unknown }) => {
      const e = event as CoreOp;
      if (failure || !Array.isArray(e.args)) return;
      if (e.type === 'op') {
        if (!OPS.has(e.path)) return fail(new Error(`the module asked for an unknown operation ${String(e.path)}`));
        try {
          if (e.path === 'agents.spawn') {
            const [agent, text, options, handle] = e.args as [string, string, unknown, string];
            spawned.set(String(handle), ctx.agents.spawn(agent, text, options));
          } else {
            target(ctx, e.path)(...e.args);
          }
        } catch (err) {
          fail(err);
        }
      } else if (e.type === 'rpc') {
        if (!RPCS.has(e.path)) return fail(new Error(`the module asked for an unknown operation ${String(e.path)}`));
        const answer =
          e.path === 'agents.wait'
            ? Promise.resolve().then(() => {
                const h = spawned.get(String(e.args[0]));
                if (!h) throw new Error('no such spawned agent');
                return h.wait();
              })
            : Promise.resolve().then(() => target(ctx, e.path)(...e.args));
        answer.then(
          (value) => host.post({ type: 'rpc_result', rpcId: e.rpcId, ok: true, value: value ?? null }),
          (err: unknown) => host.post({ type: 'rpc_result', rpcId: e.rpcId, ok: false, message: err instanceof Error ? err.message : String(err) }),
        );
      }
    };
    const desc = describeCtx(ctx, manifest);
    try {
      // The runner's signal (its timeout_seconds, a cancel) ends the process at once.
      const call = host.call('runSlot', [key, desc], 2 ** 31 - 1, { harness: { onEvent: apply, signal: ctx.signal }, killOnAbort: true, onId: (id) => (callId = id) });
      const value = (await Promise.race([call, failed])) as { returned?: string } | null;
      return value && typeof value === 'object' && typeof value.returned === 'string' ? new RemoteReturn(value.returned.slice(0, 20)) : undefined;
    } catch (e) {
      if (failure) throw failure;
      if (!(e instanceof PluginCallError)) throw e;
      // The module's file:line comes after a NUL: kept in the stack (the runner reports it), not in the message.
      const [detail, where] = e.detail.split('\u0000');
      const err = new Error(detail);
      if (where) err.stack = `Error: ${detail}\n    at ${where}`;
      throw err;
    }
  }

  dispose(): void {
    for (const h of this.hosts.values()) h.dispose();
    this.hosts.clear();
  }
}

function target(ctx: AnyCtx, path: string): (...args: unknown[]) => unknown {
  const parts = path.split('.');
  const owner = parts.slice(0, -1).reduce((o, p) => o?.[p], ctx);
  const fn = owner?.[parts[parts.length - 1]!];
  if (typeof fn !== 'function') throw new Error(`ctx.${path} is not available here`);
  return (...args) => fn.apply(owner, args);
}

/** What the module's mirror ctx reads, taken through the real ctx (so its capability checks apply). */
function describeCtx(ctx: AnyCtx, manifest: { capabilities: string[]; manifestFile: string }): Record<string, unknown> {
  const can = (cap: string) => ctx.capability.can(cap) as boolean;
  const desc: Record<string, unknown> = {
    sessionId: ctx.sessionId,
    slotId: ctx.slotId,
    slotPath: ctx.slotPath,
    slotDir: ctx.slotDir,
    coreId: ctx.coreId,
    coreRevision: ctx.coreRevision,
    vocabulary: { plain: PLAIN_CAPABILITIES, named: NAMED_CAPABILITIES },
    phase: ctx.phase,
    group: ctx.group,
    workspace: ctx.workspace,
    capabilities: manifest.capabilities,
    manifestFile: manifest.manifestFile,
  };
  if (ctx.phase === 'bootstrap') return desc;
  desc.turn = ctx.turn;
  desc.history = ctx.history.recentMessages(Number.MAX_SAFE_INTEGER);
  // A grant for some keys only (state.session.read:counter) copies just those keys.
  const scopeState = (scope: 'session' | 'core') => {
    if (can(`state.${scope}.read`)) return ctx.state[scope].snapshot();
    const out: Record<string, unknown> = {};
    for (const cap of manifest.capabilities) {
      const m = new RegExp(`^state\\.${scope}\\.(read|write):(.+)$`).exec(cap);
      if (m && m[2] !== '*' && can(`state.${scope}.read:${m[2]}`)) {
        const v = ctx.state[scope].get(m[2]);
        if (v !== undefined) out[m[2]!] = v;
      }
    }
    return out;
  };
  desc.state = { session: scopeState('session'), core: scopeState('core') };
  desc.result = ctx.result.value;
  if (ctx.phase === 'input') {
    desc.rawText = ctx.input.rawText;
    desc.attachments = ctx.input.attachments;
  }
  else desc.responseText = ctx.output.responseText;
  return desc;
}

