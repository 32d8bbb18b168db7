import type { PluginHostProcess } from './host-process.js';
import { errorMessage } from '../errors.js';

type HarnessEvent = { type: string; [k: string]: unknown };

/** What the turn may offer a harness beyond events; a request for anything missing is refused. */
export interface HarnessServices {
  tools?: { call(name: string, args: Record<string, unknown>): Promise<unknown> };
  model?: { complete(messages: unknown[]): Promise<unknown> };
}

export interface HarnessRunOptions extends HarnessServices {
  onEvent?: (event: HarnessEvent) => void;
  signal?: AbortSignal;
}

/** A harness plugin seen from the turn: same shape as the contract, running in its own process. */
export interface HarnessProxy {
  name(): string;
  slot(): 'harness';
  run(agent: object, messages: unknown[], opts?: HarnessRunOptions): Promise<unknown>;
  [fn: string]: unknown;
}

/**
 * The turn's side of the harness RPC (spec 3.3). `run` is one call to the plugin's process:
 * events the harness emits through `opts.onEvent` come back as messages while it runs, the
 * turn's signal is forwarded (and the process ended if the harness ignores it), and at the
 * deadline the process is ended, so a synchronous loop or `process.exit` in a harness costs the
 * turn, never the host. The harness's `opts.tools.call(name, args)` and
 * `opts.model.complete(messages)` are requests answered here by what the turn passes in
 * `opts.tools` / `opts.model` (the barrier and the run's state stay in the host); without them
 * the request is refused with a clear error. The result is validated by the runtime.
 */
export function harnessProxy(worker: PluginHostProcess, name: string, deadlineMs: number): HarnessProxy {
  return {
    name: () => name,
    slot: () => 'harness',
    run: (agent, messages, opts = {}) => {
      const onEvent = (event: HarnessEvent) => {
        if (event.type !== 'rpc') return opts.onEvent?.(event);
        const { rpcId, path, args } = event as { rpcId?: unknown; path?: unknown; args?: unknown };
        const list = Array.isArray(args) ? args : [];
        const answer = Promise.resolve().then(() => {
          if (path === 'tools.call' && opts.tools) return opts.tools.call(String(list[0]), (list[1] ?? {}) as Record<string, unknown>);
          if (path === 'model.complete' && opts.model) return opts.model.complete(Array.isArray(list[0]) ? list[0] : []);
          throw new Error(`${String(path)} is not available to this harness: the turn does not offer it`);
        });
        answer.then(
          (value) => worker.post({ type: 'rpc_result', rpcId, ok: true, value: value ?? null }),
          (e: unknown) => worker.post({ type: 'rpc_result', rpcId, ok: false, message: errorMessage(e) }),
        );
      };
      return worker.call('run', [agent, messages], deadlineMs, { harness: { onEvent, signal: opts.signal } });
    },
  };
}
