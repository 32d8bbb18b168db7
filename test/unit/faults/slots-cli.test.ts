/**
 * Every slot × every misbehaviour, through the real `pepe` program and the thing that really
 * uses the slot in a turn (issue 8): the turn completes (sandbox: the command is refused;
 * harness: a clean turn error), the process stays responsive, and the fallback is in the log
 * with its reason. The cases run a few at a time in `before` (each is its own process), then
 * each `it` checks one.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MISBEHAVIOURS, misbehavingPlugin, pluginName, type Misbehaviour } from '../../fixtures/plugins/misbehaving.js';
import { ensureBuilt } from '../helpers/cli.js';
import { startInstantAnswerServer } from '../helpers/ddg-server.js';
import { events, logLines, pepe, pool, type Run } from './helpers.js';
import { record } from './report.js';

const DEADLINE_MS = 1000;
/**
 * A sync loop on the main thread would never let `pepe` finish, and a memory bomb there would kill
 * it, so finishing with the built-in's answer is the proof of isolation. What is bounded is the
 * time the main thread was really blocked (busy and on a CPU, test/fixtures/faults/stall-meter.cjs),
 * not the wall-clock gap between its ticks: on a loaded machine the gap measured the machine (gaps
 * of 5-10 s were seen while the thread itself was idle). The gap is still reported. The in-process
 * test (test/unit/slots/guard-faults.test.ts) asserts the tight bound.
 */
const MAX_GAP_MS = 3 * DEADLINE_MS;
/**
 * The built-in web search's first HTTP request makes Node compile its HTTP client (undici, llhttp)
 * synchronously: ~100 ms on a quiet machine, up to ~1 s on this loaded one, whatever the plugin
 * does. Those cases get a longer deadline so the same "well under the deadline" test still holds.
 */
const WEB_DEADLINE_MS = 2500;
const WEB_MAX_GAP_MS = 3 * 2500;
const deadlineFor = (slot: string) => (slot === 'web_search' ? WEB_DEADLINE_MS : DEADLINE_MS);
/**
 * Harness misbehaviours that take the whole process down. None since the harness runs in its own
 * process (spec 3.3, revised); the list stays so a regression is reported as what it is.
 */
const HARNESS_NOT_ISOLATED: Misbehaviour[] = [];

const REASONS: Record<Misbehaviour, string[]> = {
  throw: ['error'],
  reject: ['error'],
  sync_loop: ['timeout'],
  never_resolves: ['timeout'],
  malformed: ['malformed'],
  // Building and posting an 8 MB answer can itself outlast the deadline on a loaded machine.
  oversized: ['malformed', 'timeout'],
  process_exit: ['error'],
  memory_bomb: ['error', 'timeout'],
};

type Slot = 'memory' | 'web_search' | 'sandbox' | 'model_select' | 'heartbeat_interval' | 'compaction' | 'harness';
const SLOTS: Slot[] = ['memory', 'web_search', 'sandbox', 'model_select', 'heartbeat_interval', 'compaction', 'harness'];

interface Case {
  slot: Slot;
  behaviour: Misbehaviour;
  home: string;
  run?: Run;
}

/** What triggers each slot in a real turn, and the agent config it needs. */
function setUp(c: Case, ddgUrl: string): { args: string[]; env?: Record<string, string>; timeoutMs?: number } {
  const name = pluginName(c.slot, c.behaviour);
  mkdirSync(join(c.home, 'plugins'), { recursive: true });
  writeFileSync(join(c.home, 'plugins', `${name}.mjs`), misbehavingPlugin(c.slot, c.behaviour));
  const scriptFile = (steps: unknown[]) => {
    const f = join(c.home, 'script.json');
    writeFileSync(f, JSON.stringify({ steps }));
    return `mock:${f}`;
  };
  let agent: Record<string, unknown> = { model: 'mock' };
  const extra: Record<string, unknown> = {};
  let args = ['run', 'a', 'go', '--json'];
  switch (c.slot) {
    case 'memory':
      agent = { model: scriptFile([{ tool_calls: [{ name: 'memory_search', arguments: { query: 'pepe' } }] }, { text: 'done' }]), tools: ['memory_search'] };
      break;
    case 'web_search':
      agent = { model: scriptFile([{ tool_calls: [{ name: 'web_search', arguments: { query: 'pepe' } }] }, { text: 'done' }]), tools: ['web_search'] };
      break;
    case 'sandbox':
      agent = { model: scriptFile([{ tool_calls: [{ name: 'bash', arguments: { command: 'echo ran > ran.txt' } }] }, { text: 'done' }]), tools: ['bash'], auto_approve: ['bash'] };
      break;
    case 'compaction':
      // A window this small makes the first prompt pass 60 % of it, so compaction runs at once.
      extra.models = { small: { provider: 'mock', model: 'mock', context_window: 400 } };
      agent = { model: 'small' };
      args = ['run', 'a', `remember this: ${'lorem ipsum dolor '.repeat(120)}`, '--json'];
      break;
    case 'heartbeat_interval':
      agent = { model: 'mock', heartbeat: { every_minutes: 1, prompt: 'pulse' } };
      args = ['heartbeat', 'run', '--json'];
      break;
    case 'model_select':
    case 'harness':
      break;
  }
  writeFileSync(
    join(c.home, 'config.json'),
    JSON.stringify({ slots: { [c.slot]: name }, agents: { a: agent }, web_search: { endpoint: ddgUrl }, slot_deadlines_ms: { [c.slot]: deadlineFor(c.slot) }, ...extra }),
  );
  if (c.slot === 'harness' && HARNESS_NOT_ISOLATED.includes(c.behaviour)) {
    // Bounded so the lost process cannot hog the shared machine: a small heap, killed after a few s.
    return { args, env: { NODE_OPTIONS_HEAP: '1' }, timeoutMs: DEADLINE_MS + 4000 };
  }
  return { args };
}

describe('faults: every slot × every misbehaviour through the pepe CLI (issue 8)', function () {
  // A safety net, not a measure: 56 processes on a loaded 2-core machine can take minutes.
  this.timeout(900_000);
  const cases: Case[] = SLOTS.flatMap((slot) => MISBEHAVIOURS.map((behaviour) => ({ slot, behaviour, home: mkdtempSync(join(tmpdir(), 'pepe-fault-')) })));
  let ddg: Awaited<ReturnType<typeof startInstantAnswerServer>>;

  before(async () => {
    ensureBuilt();
    ddg = await startInstantAnswerServer();
    await pool(
      5,
      cases.map((c) => async () => {
        const s = setUp(c, ddg.url);
        const heapCap = s.env?.NODE_OPTIONS_HEAP ? ['--max-old-space-size=192'] : [];
        c.run = await pepe(c.home, s.args, { timeoutMs: s.timeoutMs, nodeOptions: heapCap, env: { PEPE_WARM_URL: ddg.url } });
      }),
    );
  });
  after(async () => {
    await ddg?.close();
    for (const c of cases) rmSync(c.home, { recursive: true, force: true });
  });

  for (const c of cases) {
    const notIsolated = c.slot === 'harness' && HARNESS_NOT_ISOLATED.includes(c.behaviour);
    const designed =
      c.slot === 'sandbox'
        ? 'command refused, not run; turn completes; logged'
        : c.slot === 'harness'
          ? notIsolated
            ? 'not isolated by design (spec 3.3: the harness runs in the turn’s thread); the process is lost'
            : 'clean turn error (exit 1), built-in loop not re-run; logged'
          : 'built-in answers; turn completes; logged';
    it(`${c.slot} / ${c.behaviour}: ${designed}`, () => {
      const run = c.run!;
      const fallbacks = logLines(c.home).filter((l) => l.kind === 'slot_fallback' && l.slot === c.slot);
      const fb = fallbacks[0] as { reason?: string; detail?: string; durationMs?: number } | undefined;
      const evs = events(run.stdout);
      const end = evs.find((e) => e.type === 'turn_end');
      const gap = run.maxGapMs === null ? 'no gap report' : `blocked ${Math.round(run.maxBlockedMs ?? -1)} ms, gap ${Math.round(run.maxGapMs)} ms`;
      let observed = '';
      const problems: string[] = [];
      const check = (ok: boolean, problem: string) => {
        if (!ok) problems.push(problem);
      };

      if (notIsolated) {
        observed = run.timedOut ? `process blocked; killed by the test after ${Math.round(run.ms)} ms` : `process ended with exit ${run.exitCode} mid-turn`;
        check(run.timedOut || run.exitCode !== 0, 'expected the in-process harness to take the process down');
        check(!end, 'no turn_end can be emitted by a lost process');
      } else {
        check(!run.timedOut, `pepe did not finish (killed after ${Math.round(run.ms)} ms)`);
        // Only a plugin that hogs its thread (a sync loop, a memory bomb) would stall the main thread
        // if it ran there; for those the longest pause must stay well under the deadline. Others'
        // gaps are reported (a loaded machine stalls everything now and then), not asserted.
        if (c.behaviour === 'sync_loop' || c.behaviour === 'memory_bomb') {
          check(run.maxBlockedMs !== null && run.maxBlockedMs < (c.slot === 'web_search' ? WEB_MAX_GAP_MS : MAX_GAP_MS), `main thread stalled: ${gap}`);
        }
        check(!!fb, 'no slot_fallback record in logs/pepe.jsonl');
        // A harness failure is logged with its reason (timeout, malformed or error); "error" is also accepted
        // because a plugin that kills its own thread surfaces as an error.
        const reasons = c.slot === 'harness' ? [...REASONS[c.behaviour], 'error'] : REASONS[c.behaviour];
        check(!!fb && reasons.includes(fb.reason ?? ''), `logged reason ${fb?.reason}: ${fb?.detail}`);
        check(!!fb && (fb.durationMs ?? 1e9) < deadlineFor(c.slot) + 3000, `fallback took ${fb?.durationMs} ms`);
        if (c.slot === 'heartbeat_interval') {
          const outcomes = run.stdout.trim() ? (JSON.parse(run.stdout) as { agent: string; outcome: string; content?: string }[]) : [];
          check(run.exitCode === 0, `heartbeat run exited ${run.exitCode}: ${run.stderr}`);
          check(outcomes[0]?.outcome === 'delivered' && outcomes[0]?.content === 'You said: pulse', `pulse outcome ${JSON.stringify(outcomes)}`);
          observed = `pulse ${outcomes[0]?.outcome} ("${outcomes[0]?.content}")`;
        } else if (c.slot === 'harness') {
          check(run.exitCode === 1, `exit ${run.exitCode}`);
          check(end?.status === 'error' && /harness/.test(end?.error ?? ''), `turn_end ${JSON.stringify(end)}`);
          check(!evs.some((e) => e.type === 'assistant_message'), 'the built-in loop answered after the harness failed');
          observed = `turn error: ${String(end?.error ?? '').slice(0, 90)}`;
        } else {
          check(run.exitCode === 0, `exit ${run.exitCode}: ${run.stderr.slice(0, 300)}`);
          check(end?.status === 'ok', `turn_end ${JSON.stringify(end)}`);
          if (c.slot === 'sandbox') {
            const result = evs.find((e) => e.type === 'tool_result' && e.name === 'bash');
            check(!!result?.isError && /refused/.test(result?.content ?? ''), `bash result ${JSON.stringify(result)}`);
            check(!existsSync(join(c.home, 'ran.txt')), 'the command ran outside the failed sandbox');
            observed = `bash refused, not run; turn ${end?.status}`;
          } else if (c.slot === 'memory' || c.slot === 'web_search') {
            const tool = c.slot === 'memory' ? 'memory_search' : 'web_search';
            const result = evs.find((e) => e.type === 'tool_result' && e.name === tool);
            check(!!result && !result.isError, `${tool} result ${JSON.stringify(result)}`);
            check(evs.some((e) => e.type === 'slot_fallback' && e.slot === c.slot), 'no slot_fallback event streamed');
            check(c.slot !== 'web_search' || /Pepe is an agent runtime/.test(result?.content ?? ''), 'web_search result is not the built-in’s');
            observed = `${tool} answered by the built-in; turn ${end?.status} ("${end?.content}")`;
          } else if (c.slot === 'model_select') {
            check(end?.content === 'You said: go', `content ${end?.content}`);
            observed = `static chain used; turn ${end?.status} ("${end?.content}")`;
          } else {
            observed = `built-in compaction; turn ${end?.status}`;
          }
        }
        observed += `; logged ${fb?.reason ?? 'nothing'}${fb?.detail ? ` (${String(fb.detail).slice(0, 60)})` : ''}; ${gap}`;
      }
      record({ area: 'slots (CLI)', case: `${c.slot} × ${c.behaviour}`, expected: designed, observed, passed: problems.length === 0, ms: run.ms });
      assert.deepEqual(problems, [], `${c.slot}/${c.behaviour}: ${problems.join('; ')}\nstdout: ${run.stdout.slice(-600)}\nstderr: ${run.stderr.slice(-600)}`);
    });
  }
});
