/**
 * Routing fuzz, 10,000 cases (issue 8): random route graphs and call patterns played through the
 * real runtime (pepe.run, the router, scripted mock models). Every send_to_agent call must end
 * exactly as computed independently (allowed, no route, cycle, hop limit); no chain may exceed
 * limits.max_hops or hold an agent twice; every turn terminates. PEPE_FAULT_FUZZ_CASES overrides
 * the count. To keep 10,000 turns fast, the home is in /dev/shm when there is one and the
 * configuration is handed to the store from memory instead of being written and re-read each case.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockProvider } from '../../../src/core/models/mock.js';
import type { MockScript } from '../../../src/core/models/mock-script.js';
import { createPepe } from '../../../src/core/pepe.js';
import type { TurnEvent } from '../../../src/core/events.js';
import { expectedCalls, fuzzCase, outcomeOf, type Outcome } from '../../fixtures/routing-fuzz.js';
import { record } from './report.js';

const CASES = Number(process.env.PEPE_FAULT_FUZZ_CASES ?? 10_000);

describe('faults: routing fuzz (issue 8)', function () {
  this.timeout(600_000);
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'pepe-fuzz-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`${CASES} random graphs and call patterns: outcomes exact, no chain past the hop limit, no cycle, every turn ends`, async () => {
    const scripts = new Map<string, MockScript>();
    const pepe = await createPepe({
      home: dir,
      env: {},
      workspace: dir,
      providerOptions: { external: (id) => (scripts.has(id) ? new MockProvider(id, scripts.get(id)) : undefined) },
    });
    let current = '{}';
    pepe['store'].read = async () => pepe['store'].parse(current);
    const tally: Record<Outcome, number> = { ok: 0, no_route: 0, cycle: 0, hop_limit: 0 };
    let longest = 0;
    let exactLimitHits = 0;
    const started = performance.now();
    for (let seed = 1; seed <= CASES; seed++) {
      const c = fuzzCase(seed);
      scripts.clear();
      const agents: Record<string, unknown> = {};
      for (const [name, targets] of Object.entries(c.calls)) {
        const steps = [...targets.map((to) => ({ tool_calls: [{ name: 'send_to_agent', arguments: { to, message: `from ${name}` } }] })), { text: `${name} done` }];
        scripts.set(`fuzz:${seed}:${name}`, { steps } as MockScript);
        agents[name] = { model: `fuzz:${seed}:${name}`, can_message: c.routes[name], tools: ['send_to_agent'] };
      }
      current = JSON.stringify({ agents, limits: { max_hops: c.maxHops } });
      await pepe.reload();

      const calls: { key: string; from: string[]; to: string }[] = [];
      const results = new Map<string, Outcome>();
      const chains: string[][] = [];
      const onEvent = (e: TurnEvent) => {
        if (e.type === 'tool_call' && e.name === 'send_to_agent') calls.push({ key: `${e.path.join('>')}#${e.id}`, from: e.path, to: (e.arguments as { to: string }).to });
        else if (e.type === 'tool_result' && e.name === 'send_to_agent') results.set(`${e.path.join('>')}#${e.id}`, outcomeOf(e.content, e.isError));
        else if (e.type === 'route_call' && e.phase === 'start') chains.push(e.chain);
      };
      const result = await pepe.run({ agent: 'a0', text: 'go', onEvent, personPresent: false });
      const context = `seed ${seed}: ${JSON.stringify(c)}`;
      assert.equal(result.status, 'ok', context);
      const observed = calls.map((x) => ({ from: x.from, to: x.to, outcome: results.get(x.key) }));
      assert.deepEqual(observed, expectedCalls(c), context);
      for (const chain of chains) {
        assert.ok(chain.length - 1 <= c.maxHops, `chain ${chain.join('>')} exceeds the hop limit; ${context}`);
        assert.equal(new Set(chain).size, chain.length, `agent twice in ${chain.join('>')}; ${context}`);
        longest = Math.max(longest, chain.length - 1);
        if (chain.length - 1 === c.maxHops) exactLimitHits++;
      }
      for (const o of observed) tally[o.outcome!]++;
    }
    const ms = performance.now() - started;
    pepe.dispose();
    // The fuzz must actually exercise every rule, or it proves nothing.
    for (const k of Object.keys(tally) as Outcome[]) assert.ok(tally[k] > 0, `no ${k} outcome in ${CASES} cases`);
    record({
      area: 'routing',
      case: `${CASES} random graphs (2–8 agents, random routes, 0–2 send_to_agent calls per run, max_hops 1–6)`,
      expected: 'every outcome exactly as computed; no chain past max_hops; no agent twice; every turn ends',
      observed: `${Object.values(tally).reduce((a, b) => a + b, 0)} calls: ${tally.ok} routed, ${tally.no_route} no route, ${tally.cycle} cycle, ${tally.hop_limit} hop limit; ${exactLimitHits} chains exactly at max_hops; longest ${longest} hops; all turns ok`,
      passed: true,
      ms,
    });
  });
});
