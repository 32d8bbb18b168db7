import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import * as z from '../zod.js';
import { PluginCallError, type PluginShape } from './call-error.js';
import { FrameError, FrameReader, MAX_MESSAGE_BYTES, encodeFrame } from './framing.js';
import { HOST_SOURCE } from './host-source.js';
import { errorMessage } from '../errors.js';
import { lazySchema } from '../lazy-schema.js';
import { withoutInherited } from '../sandbox/inherited-fds.js';

/** How a plugin host process is started: argv (node and its arguments) → the command to spawn. */
export type Launcher = (argv: string[]) => Promise<{ file: string; args: string[] }>;

export interface PluginHostOptions {
  /** The program the process runs (default: the plugin host, host-source.ts). */
  source?: string;
  /** More fields for the program's `init` message. */
  init?: Record<string, unknown>;
  /** Transpiled CommonJS source for TypeScript plugins; undefined to import the file itself. */
  code?: string;
  /** Changes whenever the file does, so a restarted process imports the new version. */
  version: string;
  /** The process's working directory: the plugin's own data folder (created on start). */
  dataDir: string;
  /** The whole environment of the process (already an allow-list; see sandboxing.ts), read at each start. */
  env: Record<string, string> | (() => Record<string, string>);
  /** Wraps the command in the confinement; by default the process runs unconfined. */
  launch?: Launcher;
  loadTimeoutMs?: number;
  memoryLimitMb?: number;
  /** A result over this is malformed (checked in the process, before sending). */
  maxResultBytes?: number;
  /** Console output kept per call; the rest is dropped with one marker line. */
  maxOutputBytes?: number;
  /** Where the plugin's console output goes (it never reaches the host's stdout). */
  onOutput?: (text: string) => void;
}

/** Extras for one call: usage tiers (model_select, heartbeat_interval) or a harness's opts. */
export interface CallExtra {
  usageTiers?: Record<string, string>;
  /** A harness call: the plugin gets `{ signal, onEvent }` as its last argument. */
  harness?: { onEvent?: (event: { type: string; [k: string]: unknown }) => void; signal?: AbortSignal };
  /** With `harness.signal`: end the process at once when it aborts (no grace to stop by itself). */
  killOnAbort?: boolean;
  /** Told the call's id (to address the process about this call, e.g. to abort it). */
  onId?: (id: number) => void;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
/** After a harness is asked to stop, how long it has before its process is ended. */
const ABORT_GRACE_MS = 1_000;

// Every message from the process is untrusted: checked here, the result value by the slot's contract.
const FromPlugin = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('ready'), name: z.string(), slot: z.string(), functions: z.array(z.string()) }),
    z.object({ type: z.literal('load_error'), message: z.string() }),
    z.discriminatedUnion('ok', [
      z.object({ type: z.literal('result'), id: z.number(), ok: z.literal(true), value: z.unknown() }),
      z.object({ type: z.literal('result'), id: z.number(), ok: z.literal(false), kind: z.enum(['error', 'timeout', 'malformed']), message: z.string() }),
    ]),
    z.object({ type: z.literal('event'), id: z.number(), event: z.looseObject({ type: z.string() }) }),
  ]),
);
type FromPlugin = z.infer<typeof FromPlugin>;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: PluginCallError) => void;
  onEvent?: (event: { type: string; [k: string]: unknown }) => void;
}

/** Process groups still running, ended when the host exits (a plugin never outlives Pepe). */
const live = new Set<number>();
let exitHookInstalled = false;
function track(pid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const p of live) killGroup(p);
    });
  }
  live.add(pid);
}

function killGroup(pid: number): void {
  live.delete(pid);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/**
 * One plugin host process per plugin file (spec 3.3). A call that misses its deadline ends the
 * process, and with it everything it started (its process group; under confinement its own PID
 * namespace), which stops even `while(true){}`; a fresh process is started in the background so
 * the next call finds it ready. A plugin that exits, kills itself or runs out of memory only ends
 * its own process. Messages from the process are size-capped and checked; an oversized or
 * garbled one fails the call as malformed and recycles the process.
 */
export class PluginHostProcess {
  private child: ChildProcess | null = null;
  private channel: Socket | null = null;
  private ready: Promise<PluginShape> | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;
  /** Bumped on every (re)start so late events from a dead process are ignored. */
  private generation = 0;
  private outputLeft = 0;
  private outputDropped = 0;
  private stderrTail = '';
  restarts = 0;

  constructor(readonly file: string, private readonly options: PluginHostOptions) {
    this.outputLeft = this.maxOutput;
  }

  private get maxOutput(): number {
    return this.options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  }

  /** The running process's id (for tests and diagnostics), or null. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Starts the process if needed and resolves once the plugin has loaded. */
  load(): Promise<PluginShape> {
    if (this.disposed) return Promise.reject(new PluginCallError('error', 'plugin host was disposed'));
    if (!this.ready) this.ready = this.start();
    return this.ready;
  }

  private async start(): Promise<PluginShape> {
    const generation = ++this.generation;
    const argv = [process.execPath, `--max-old-space-size=${this.options.memoryLimitMb ?? 256}`, '-e', this.options.source ?? HOST_SOURCE];
    mkdirSync(this.options.dataDir, { recursive: true, mode: 0o700 });
    const command = this.options.launch ? await this.options.launch(argv) : { file: argv[0]!, args: argv.slice(1) };
    if (generation !== this.generation) throw new PluginCallError('error', 'plugin host was stopped while starting');
    // ELECTRON_RUN_AS_NODE: inside VS Code, execPath is the editor's binary; this makes it plain Node.
    const child = spawn(command.file, command.args, {
      cwd: this.options.dataDir,
      env: { ...(typeof this.options.env === 'function' ? this.options.env() : this.options.env), ELECTRON_RUN_AS_NODE: '1' },
      stdio: withoutInherited(['ignore', 'pipe', 'pipe', 'pipe']),
      detached: true,
      windowsHide: true,
    });
    this.child = child;
    if (child.pid) track(child.pid);
    const channel = child.stdio[3] as Socket;
    this.channel = channel;
    child.unref();
    for (const s of [child.stdout, child.stderr, channel] as (Socket | null)[]) s?.unref?.();
    child.stdout?.on('data', (b: Buffer) => this.output(b, false));
    child.stderr?.on('data', (b: Buffer) => this.output(b, true));

    return new Promise<PluginShape>((resolve, reject) => {
      let settled = false;
      const loadTimeoutMs = this.options.loadTimeoutMs ?? 5000;
      const loadTimer = setTimeout(() => fail(new PluginCallError('timeout', `did not load within ${loadTimeoutMs} ms`)), loadTimeoutMs);
      const fail = (error: PluginCallError) => {
        clearTimeout(loadTimer);
        if (generation === this.generation) this.stop(error);
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      const reader = new FrameReader(MAX_MESSAGE_BYTES, (raw) => {
        if (generation !== this.generation) return;
        const parsed = FromPlugin.safeParse(raw);
        if (!parsed.success) throw new FrameError('a message does not match the plugin host protocol');
        this.receive(parsed.data, {
          ready: (shape) => {
            if (settled) return;
            clearTimeout(loadTimer);
            settled = true;
            resolve(shape);
          },
          loadError: (message) => fail(new PluginCallError('error', `failed to load: ${message}`)),
        });
      });
      channel.on('data', (chunk: Buffer) => {
        try {
          reader.push(chunk);
        } catch (e) {
          fail(new PluginCallError('malformed', `sent a bad message: ${errorMessage(e)}`));
        }
      });
      channel.on('error', () => undefined);
      child.on('error', (err) => fail(new PluginCallError('error', `could not start: ${err.message}`)));
      child.on('exit', (code, signal) => {
        if (child.pid) live.delete(child.pid);
        fail(new PluginCallError('error', this.exitDetail(code, signal)));
      });
      this.send({ ...this.options.init, type: 'init', file: this.file, code: this.options.code, version: this.options.version, maxResultBytes: this.options.maxResultBytes ?? MAX_MESSAGE_BYTES - 1024 });
    });
  }

  private receive(msg: FromPlugin, on: { ready: (shape: PluginShape) => void; loadError: (message: string) => void }): void {
    if (msg.type === 'ready') return on.ready({ name: msg.name, slot: msg.slot, functions: msg.functions });
    if (msg.type === 'load_error') return on.loadError(msg.message);
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'event') {
      p.onEvent?.(msg.event);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.value);
    else p.reject(new PluginCallError(msg.kind, msg.message));
  }

  private exitDetail(code: number | null, signal: NodeJS.Signals | null): string {
    if (/heap out of memory|Reached heap limit/i.test(this.stderrTail)) return 'ran out of memory';
    return signal ? `exited (killed by ${signal})` : `exited (code ${code})`;
  }

  /** Console output, capped per call: what is over the cap is counted and dropped. */
  private output(chunk: Buffer, isStderr: boolean): void {
    if (isStderr) this.stderrTail = (this.stderrTail + chunk.toString('utf8', Math.max(0, chunk.length - 2048))).slice(-2048);
    if (this.outputLeft <= 0) {
      this.outputDropped += chunk.length;
      return;
    }
    const kept = chunk.length <= this.outputLeft ? chunk : chunk.subarray(0, this.outputLeft);
    this.outputLeft -= kept.length;
    this.outputDropped += chunk.length - kept.length;
    this.options.onOutput?.(kept.toString('utf8'));
  }

  /** A new call starts a new output budget; what the last one dropped is reported once. */
  private resetOutput(): void {
    if (this.outputDropped > 0) this.options.onOutput?.(`[plugin output over ${this.maxOutput} bytes for one call: ${this.outputDropped} more bytes dropped]\n`);
    this.outputDropped = 0;
    this.outputLeft = this.maxOutput;
  }

  private send(message: unknown): void {
    this.channel?.write(encodeFrame(message));
  }

  /** Sends a message to the running process (an answer to one of its requests); dropped when none runs. */
  post(message: Record<string, unknown>): void {
    this.send(message);
  }

  /** Ends the current process (and its group), fails its pending calls; the next load restarts. */
  private stop(error: PluginCallError): void {
    const child = this.child;
    this.child = null;
    this.channel = null;
    this.ready = null;
    this.generation++;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    if (child?.pid) killGroup(child.pid);
  }

  /**
   * Calls `fn(...args)` in the process. Rejects with PluginCallError on a throw, a malformed
   * (unsendable, oversized or garbled) value, a crash, or when `deadlineMs` passes (load time
   * included); on a deadline miss the process is ended and a fresh one warmed.
   */
  async call(fn: string, args: unknown[], deadlineMs: number, extra?: CallExtra): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const signal = extra?.harness?.signal;
    const id = this.nextId++;
    extra?.onId?.(id);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PluginCallError('timeout', `no answer within ${deadlineMs} ms`)), deadlineMs);
      if (signal) {
        onAbort = () => {
          this.send({ type: 'abort', id });
          if (extra?.killOnAbort) return reject(new PluginCallError('timeout', 'stopped'));
          graceTimer = setTimeout(() => reject(new PluginCallError('timeout', 'cancelled, and did not stop when asked')), ABORT_GRACE_MS);
        };
      }
    });
    try {
      if (signal?.aborted) throw new PluginCallError('error', 'cancelled');
      if (onAbort) signal!.addEventListener('abort', onAbort, { once: true });
      await Promise.race([this.load(), deadline]);
      if (!this.channel) throw new PluginCallError('error', 'plugin host stopped before the call');
      let frame: Buffer;
      try {
        frame = encodeFrame({ type: 'call', id, fn, args, usageTiers: extra?.usageTiers, harness: extra?.harness ? true : undefined });
      } catch (e) {
        throw new PluginCallError('error', `arguments cannot be sent: ${errorMessage(e)}`);
      }
      const answer = new Promise<unknown>((resolve, reject) => {
        this.pending.set(id, { resolve, reject, onEvent: extra?.harness?.onEvent });
      });
      this.resetOutput();
      this.channel.write(frame);
      return await Promise.race([answer, deadline]);
    } catch (e) {
      this.pending.delete(id);
      // A process that missed a deadline is still running whatever it was doing: it is ended.
      if (e instanceof PluginCallError && e.reason === 'timeout') this.stop(e);
      // Whatever ended the process (deadline, crash, a bad message), warm a fresh one now so the
      // next call does not pay the start-up.
      if (!this.ready && !this.disposed) {
        this.restarts++;
        this.load().catch(() => undefined);
      }
      throw e instanceof PluginCallError ? e : new PluginCallError('error', String(e));
    } finally {
      clearTimeout(timer);
      clearTimeout(graceTimer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Ends the process now (pending calls fail) and starts a fresh one, e.g. under a new policy. */
  recycle(): void {
    if (this.disposed) return;
    this.stop(new PluginCallError('error', 'plugin host was restarted'));
    this.load().catch(() => undefined);
  }

  dispose(): void {
    this.disposed = true;
    this.stop(new PluginCallError('error', 'plugin host was disposed'));
  }
}
