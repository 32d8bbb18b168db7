import { Worker } from 'node:worker_threads';
import { WORKER_SOURCE } from './worker-source.js';

/** What a loaded plugin says about itself. */
export interface PluginShape {
  name: string;
  slot: string;
  functions: string[];
}

export type FailureReason = 'error' | 'timeout' | 'malformed';

/** A plugin call that did not produce a usable value. */
export class PluginCallError extends Error {
  constructor(readonly reason: FailureReason, readonly detail: string) {
    super(detail);
  }
}

export interface PluginWorkerOptions {
  /** Transpiled CommonJS source for TypeScript plugins; undefined to import the file itself. */
  code?: string;
  /** Changes whenever the file does, so a restarted worker imports the new version. */
  version: string;
  loadTimeoutMs?: number;
  memoryLimitMb?: number;
  maxResultBytes?: number;
  /** The plugin's process.env: the host's, scrubbed of secrets (spec 8). */
  env?: Record<string, string>;
  /** Where the plugin's console output goes (it never reaches the host's stdout). */
  onOutput?: (text: string) => void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: PluginCallError) => void;
}

/**
 * One worker thread hosting one plugin file (spec 3.3). A call that misses its deadline
 * terminates the thread (this stops even `while(true){}`); the worker is started again in the
 * background so the next call finds it ready. A plugin that exits or runs out of memory only
 * ends its own thread.
 */
export class PluginWorker {
  private worker: Worker | null = null;
  private ready: Promise<PluginShape> | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;
  /** Bumped on every (re)start so late events from a dead thread are ignored. */
  private generation = 0;
  restarts = 0;

  constructor(readonly file: string, private readonly options: PluginWorkerOptions) {}

  /** Starts the worker if needed and resolves once the plugin has loaded. */
  load(): Promise<PluginShape> {
    if (this.disposed) return Promise.reject(new PluginCallError('error', 'plugin host was disposed'));
    if (!this.ready) this.ready = this.start();
    return this.ready;
  }

  private start(): Promise<PluginShape> {
    const generation = ++this.generation;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        file: this.file,
        code: this.options.code,
        version: this.options.version,
        maxResultBytes: this.options.maxResultBytes ?? 4 * 1024 * 1024,
      },
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryLimitMb ?? 256 },
      stdout: true,
      stderr: true,
      env: this.options.env ?? {},
    });
    worker.unref();
    const forward = (chunk: Buffer) => this.options.onOutput?.(chunk.toString('utf8'));
    worker.stdout.on('data', forward);
    worker.stderr.on('data', forward);
    this.worker = worker;

    return new Promise<PluginShape>((resolve, reject) => {
      let settled = false;
      const loadTimer = setTimeout(() => {
        fail(new PluginCallError('timeout', `did not load within ${this.options.loadTimeoutMs ?? 5000} ms`));
      }, this.options.loadTimeoutMs ?? 5000);
      const fail = (error: PluginCallError) => {
        clearTimeout(loadTimer);
        if (generation === this.generation) this.stop(error);
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      worker.on('message', (msg: WorkerMessage) => {
        if (generation !== this.generation) return;
        if (msg.type === 'ready') {
          clearTimeout(loadTimer);
          settled = true;
          resolve({ name: msg.name, slot: msg.slot, functions: msg.functions });
        } else if (msg.type === 'load_error') {
          fail(new PluginCallError('error', `failed to load: ${msg.message}`));
        } else if (msg.type === 'result') {
          const p = this.pending.get(msg.id);
          if (!p) return;
          this.pending.delete(msg.id);
          if (msg.ok) p.resolve(msg.value);
          else p.reject(new PluginCallError(msg.kind, msg.message));
        }
      });
      worker.on('error', (err: Error & { code?: string }) => {
        const detail = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'ran out of memory' : `crashed: ${err.message}`;
        fail(new PluginCallError('error', detail));
      });
      worker.on('exit', (code) => {
        fail(new PluginCallError('error', `exited (code ${code})`));
      });
    });
  }

  /** Ends the current thread, fails its pending calls, and forgets it so the next load restarts. */
  private stop(error: PluginCallError): void {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    this.generation++;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    if (worker) void worker.terminate();
  }

  /**
   * Calls `fn(...args)` in the worker. Rejects with PluginCallError on a throw, a malformed
   * (unsendable or oversized) value, a crash, or when `deadlineMs` passes (load time included).
   */
  async call(fn: string, args: unknown[], deadlineMs: number, extra?: { usageTiers?: Record<string, string> }): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PluginCallError('timeout', `no answer within ${deadlineMs} ms`)), deadlineMs);
    });
    try {
      await Promise.race([this.load(), deadline]);
      const worker = this.worker;
      if (!worker) throw new PluginCallError('error', 'worker stopped before the call');
      const id = this.nextId++;
      const answer = new Promise<unknown>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
      });
      worker.postMessage({ type: 'call', id, fn, args, usageTiers: extra?.usageTiers });
      return await Promise.race([answer, deadline]);
    } catch (e) {
      if (e instanceof PluginCallError && e.reason === 'timeout') {
        this.stop(e);
        this.restarts++;
        // Warm a fresh thread now so the next call does not pay the start-up.
        if (!this.disposed) this.load().catch(() => undefined);
      }
      throw e instanceof PluginCallError ? e : new PluginCallError('error', String(e));
    } finally {
      clearTimeout(timer);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.stop(new PluginCallError('error', 'plugin host was disposed'));
  }
}

type WorkerMessage =
  | { type: 'ready'; name: string; slot: string; functions: string[] }
  | { type: 'load_error'; message: string }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; kind: FailureReason; message: string };
