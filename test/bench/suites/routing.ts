/**
 * Routing (issue 8): cost per send_to_agent hop on mock models. A chain h0 → h1 → … → h5 (five
 * hops, each callee a fresh run with its own session) against the last agent answering alone;
 * the difference divided by the hop count is what one hop costs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPepe } from '../../../src/core/pepe.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedDiff } from '../stats.js';

const HOPS = 5;

export async function routingSuite(ctx: SuiteContext): Promise<Figure[]> {
  const home = join(ctx.tmp, 'routing');
  mkdirSync(home, { recursive: true });
  const agents: Record<string, unknown> = {};
  for (let i = 0; i <= HOPS; i++) {
    const next = i < HOPS ? `h${i + 1}` : null;
    const steps = next ? [{ tool_calls: [{ name: 'send_to_agent', arguments: { to: next, message: `from h${i}` } }] }, { text: `h${i} done` }] : [{ text: `h${i} done` }];
    const file = join(home, `h${i}.json`);
    writeFileSync(file, JSON.stringify({ steps }));
    agents[`h${i}`] = { model: `mock:${file}`, tools: ['send_to_agent'], can_message: next ? [next] : [] };
  }
  writeFileSync(join(home, 'config.json'), JSON.stringify({ agents, limits: { max_hops: HOPS } }));
  const pepe = await createPepe({ home, env: {}, workspace: home });
  const turn = (agent: string, expectHops: number) => async () => {
    let hops = 0;
    const t = performance.now();
    const r = await pepe.run({ agent, text: 'go', personPresent: false, onEvent: (e) => void (e.type === 'route_call' && e.phase === 'start' && hops++) });
    const ms = performance.now() - t;
    if (r.status !== 'ok' || hops !== expectHops) throw new Error(`routing bench: ${agent} made ${hops} hops (${r.status} ${r.error ?? ''})`);
    return ms;
  };
  for (let i = 0; i < 5; i++) {
    await turn('h0', HOPS)();
    await turn(`h${HOPS}`, 0)();
  }
  const s = await interleave(ctx.quick ? 8 : 30, { chain: turn('h0', HOPS), alone: turn(`h${HOPS}`, 0) });
  pepe.dispose();
  return [
    figure('routing', 'routing.chain', `turn with a ${HOPS}-hop send_to_agent chain (mock models)`, 'ms', s.chain),
    figure('routing', 'routing.alone', 'the last agent answering alone', 'ms', s.alone),
    figure('routing', 'routing.per_hop', `cost per hop ((chain − alone) ÷ ${HOPS}, paired)`, 'ms/hop', pairedDiff(s.chain, s.alone, HOPS), { below: 2, targetText: '< 2 ms/hop' }),
  ];
}
