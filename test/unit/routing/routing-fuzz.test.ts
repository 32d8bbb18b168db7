import assert from 'node:assert/strict';
import { MockProvider } from '../../../src/core/models/mock.js';
import type { MockScript } from '../../../src/core/models/mock-script.js';
import type { TurnEvent } from '../../../src/core/events.js';
import { rng } from '../../fixtures/routing-fuzz.js';
import { TempHome } from '../helpers/home.js';


export const FUZZ_CASES = Number(process.env.PEPE_ROUTING_FUZZ_CASES ?? 1000);

describe('routing fuzz: random route graphs and call patterns (spec 6.2)', function () {
  this.timeout(300_000);
  let home: TempHome;
  before(() => {
    home = new TempHome();
  });
  after(() => home.cleanup());

  it(`${FUZZ_CASES} cases: every turn terminates, no chain exceeds the hop limit, no agent twice in a chain, refusals exactly where expected`, async () => {
    const scripts = new Map<string, MockScript>();
    const pepe = await home.pepe({
      workspace: home.dir,
      providerOptions: { external: (id) => (scripts.has(id) ? new MockProvider(id, scripts.get(id)) : undefined) },
    });
    for (let seed = 1; seed <= FUZZ_CASES; seed++) {
      const random = rng(seed);
      const n = 2 + Math.floor(random() * 6);
      const names = Array.from({ length: n }, (_, i) => `a${i}`);
      const maxHops = 1 + Math.floor(random() * 5);
      const target = new Map<string, string | null>();
      const agents: Record<string, unknown> = {};
      scripts.clear();
      for (const name of names) {
        const routes = names.filter((o) => o !== name && random() < 0.5);
        // Each agent, in a fresh run, first calls one agent (routed or not, maybe itself), or none.
        const t = random() < 0.85 ? names[Math.floor(random() * n)]! : null;
        target.set(name, t);
        scripts.set(`fuzz:${seed}:${name}`, { steps: t ? [{ tool_calls: [{ name: 'send_to_agent', arguments: { to: t, message: `from ${name}` } }] }, { text: `${name} done` }] : [{ text: `${name} done` }] });
        agents[name] = { model: `fuzz:${seed}:${name}`, can_message: routes, tools: ['send_to_agent'] };
      }
      home.writeConfig({ agents, limits: { max_hops: maxHops } });
      await pepe.reload();

      // What must happen: follow the calls until a missing route, a cycle or the hop limit.
      const expected: string[] = ['a0'];
      for (;;) {
        const cur = expected.at(-1)!;
        const t = target.get(cur);
        if (!t) break;
        const routes = (agents[cur] as { can_message: string[] }).can_message;
        if (!routes.includes(t) || expected.includes(t) || expected.length > maxHops) break;
        expected.push(t);
      }

      const starts: string[][] = [];
      const onEvent = (e: TurnEvent) => {
        if (e.type === 'route_call' && e.phase === 'start') starts.push(e.chain);
      };
      const result = await pepe.run({ agent: 'a0', text: 'go', onEvent });
      const context = `seed ${seed}: agents ${JSON.stringify(agents)}, max_hops ${maxHops}`;
      assert.equal(result.status, 'ok', context);
      for (const chain of starts) {
        assert.ok(chain.length - 1 <= maxHops, `chain ${chain.join('>')} exceeds the hop limit; ${context}`);
        assert.equal(new Set(chain).size, chain.length, `agent twice in ${chain.join('>')}; ${context}`);
      }
      const longest = starts.at(-1) ?? ['a0'];
      assert.deepEqual(longest, expected, context);
    }
  });
});
