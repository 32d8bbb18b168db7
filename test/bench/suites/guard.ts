/**
 * Slot guard (issue 8): a plugin call's round-trip through the guard and its plugin process vs the
 * same function called in-process; time to fall back on a throw, on malformed output, on a hang;
 * time until a killed plugin process answers again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPepe } from '../../../src/core/pepe.js';
import { SLOT_RESULTS } from '../../../src/core/slots/contracts.js';
import { BENCH_MEMORY_PLUGIN, BENCH_PLUGIN_NAME } from '../../fixtures/plugins/bench-memory.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedDiff } from '../stats.js';

const HANG_DEADLINE_MS = 250;

export async function guardSuite(ctx: SuiteContext): Promise<Figure[]> {
  const home = join(ctx.tmp, 'guard');
  mkdirSync(join(home, 'plugins'), { recursive: true });
  const file = join(home, 'plugins', `${BENCH_PLUGIN_NAME}.mjs`);
  writeFileSync(file, BENCH_MEMORY_PLUGIN);
  writeFileSync(join(home, 'config.json'), JSON.stringify({ slots: { memory: BENCH_PLUGIN_NAME }, agents: { a: { model: 'mock' } }, slot_deadlines_ms: { memory: HANG_DEADLINE_MS } }));
  const pepe = await createPepe({ home, env: {}, workspace: home });
  await pepe.pluginList(); // loaded, as in a running host
  const builtin = () => pepe['builtins'].memory.search('a', 'q', { limit: 5 });
  const guarded = (query: string) => pepe['slots'].memorySearch('a', query, { limit: 5 }, undefined, builtin);
  const mod = (await import(pathToFileURL(file).href)) as { search: (a: string, q: string, o: object) => unknown };
  const worker = pepe['registry'].workerFor(file);
  if (!worker) throw new Error('bench plugin worker not started');

  const first = await guarded('deploy');
  if (first.answeredBy !== BENCH_PLUGIN_NAME) throw new Error(`bench plugin did not answer: ${JSON.stringify(first.fallback)}`);

  // Round trip: batches of calls, averaged per call; variants interleaved batch by batch.
  const batch = ctx.quick ? 50 : 200;
  const perCall = (fn: (i: number) => Promise<unknown>) => async () => {
    const t = performance.now();
    for (let i = 0; i < batch; i++) await fn(i);
    return (performance.now() - t) / batch;
  };
  for (let i = 0; i < 300; i++) await guarded(`warm ${i}`); // JIT both sides
  const rounds = ctx.quick ? 8 : 30;
  const rt = await interleave(rounds, {
    // The same function, same arguments, in this thread, result validated the same way.
    inProcess: perCall(async (i) => SLOT_RESULTS.memory.parse(await mod.search('a', `q${i}`, { limit: 5 }))),
    worker: perCall((i) => worker.call('search', ['a', `q${i}`, { limit: 5 }], 3000)),
    guard: perCall((i) => guarded(`q${i}`)),
  });

  // Before/after of the one core change made for this target: the plugin listing every guarded
  // call does (old: async readdir + stat through the thread pool; new: synchronous signature check).
  const registry = pepe['registry'] as unknown as { listFiles(): Promise<unknown>; list(): Promise<unknown> };
  const listing = await interleave(rounds, {
    before: perCall(() => registry.listFiles()),
    after: perCall(() => registry.list()),
  });

  // Failures: each timed as the caller sees it (until the built-in's answer is in hand).
  const failRounds = ctx.quick ? 4 : 12;
  const failures = await interleave(failRounds, {
    throw: async () => {
      const t = performance.now();
      const a = await guarded('__throw');
      if (a.fallback?.reason !== 'error') throw new Error('expected an error fallback');
      return performance.now() - t;
    },
    malformed: async () => {
      const t = performance.now();
      const a = await guarded('__malformed');
      if (a.fallback?.reason !== 'malformed') throw new Error('expected a malformed fallback');
      return performance.now() - t;
    },
  });
  const hang: number[] = [];
  const loop: number[] = [];
  const readyAfterKill: number[] = [];
  const hangRounds = ctx.quick ? 3 : 8;
  for (let r = 0; r < hangRounds; r++) {
    for (const [query, into] of [['__hang', hang], ['__loop', loop]] as const) {
      let t = performance.now();
      const a = await guarded(query);
      if (a.fallback?.reason !== 'timeout') throw new Error(`expected a timeout, got ${JSON.stringify(a.fallback)}`);
      into.push(performance.now() - t - HANG_DEADLINE_MS);
      // The thread was terminated at the deadline; the next call waits for the fresh one.
      // Timed until the fresh thread has loaded the plugin and answered one call (not through the
      // guard, whose deadline would count a slow start-up on a loaded machine as another failure).
      t = performance.now();
      await worker.load();
      await worker.call('search', ['a', 'after', { limit: 5 }], 10_000);
      readyAfterKill.push(performance.now() - t);
    }
  }
  pepe.dispose();

  return [
    figure('guard', 'guard.inprocess', 'memory plugin call in-process (direct call + zod check)', 'ms', rt.inProcess),
    figure('guard', 'guard.worker', 'same call, plugin process message round trip only', 'ms', rt.worker),
    figure('guard', 'guard.guard', 'same call through the guard (resolve, availability, worker, zod)', 'ms', rt.guard),
    figure('guard', 'guard.added', 'added by the guard + worker (paired: guard − in-process)', 'ms', pairedDiff(rt.guard, rt.inProcess), { below: 0.2, targetText: '< 0.2 ms' }),
    figure('guard', 'guard.list_before', 'plugin listing per call, before (async readdir + stat each call)', 'ms', listing.before),
    figure('guard', 'guard.list_after', 'plugin listing per call, after (sync signature check, cached listing)', 'ms', listing.after),
    figure('guard', 'guard.fallback_throw', 'fall back on a throw (until the built-in answered)', 'ms', failures.throw),
    figure('guard', 'guard.fallback_malformed', 'fall back on malformed output', 'ms', failures.malformed),
    figure('guard', 'guard.fallback_hang', `fall back on a never-resolving promise, beyond the ${HANG_DEADLINE_MS} ms deadline`, 'ms', hang, { below: 50, targetText: 'deadline + < 50 ms' }),
    figure('guard', 'guard.fallback_loop', `fall back on a synchronous loop, beyond the ${HANG_DEADLINE_MS} ms deadline`, 'ms', loop, { below: 50, targetText: 'deadline + < 50 ms' }),
    figure('guard', 'guard.ready_after_kill', 'killed worker ready again (from the deadline kill to the fresh thread’s first answer)', 'ms', readyAfterKill, {
      note: 'a fresh thread is warmed right after the kill; this is the next call’s latency, start-up included',
    }),
  ];
}


