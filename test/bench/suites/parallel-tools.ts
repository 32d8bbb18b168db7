/**
 * Parallel tools (issue 15): three read-only tool calls in one model message, each a web search
 * that takes 300 ms at a local slow HTTP server (the web_search endpoint), against one such call
 * alone. Run side by side, the three should cost about what one does: the ratio's target is 1.3×.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createPepe } from '../../../src/core/pepe.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedRatio } from '../stats.js';

const DELAY_MS = 300;

export async function parallelToolsSuite(ctx: SuiteContext): Promise<Figure[]> {
  const server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('q') ?? '';
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ Heading: q, AbstractText: `about ${q}` }));
    }, DELAY_MS);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const home = join(ctx.tmp, 'parallel-tools');
  mkdirSync(home, { recursive: true });
  const agent = (name: string, queries: string[]) => {
    const file = join(home, `${name}.json`);
    writeFileSync(file, JSON.stringify({ steps: [{ tool_calls: queries.map((query) => ({ name: 'web_search', arguments: { query } })) }, { text: 'done' }] }));
    return { model: `mock:${file}`, tools: ['web_search'] };
  };
  writeFileSync(join(home, 'config.json'), JSON.stringify({ web_search: { endpoint }, agents: { three: agent('three', ['a', 'b', 'c']), one: agent('one', ['a']) } }));
  const pepe = await createPepe({ home, env: {}, workspace: home });
  const turn = (name: string, calls: number) => async () => {
    let results = 0;
    const t = performance.now();
    const r = await pepe.run({ agent: name, text: 'go', personPresent: false, onEvent: (e) => void (e.type === 'tool_result' && !e.isError && results++) });
    const ms = performance.now() - t;
    if (r.status !== 'ok' || results !== calls) throw new Error(`parallel tools bench: ${name} got ${results} results (${r.status} ${r.error ?? ''})`);
    return ms;
  };
  try {
    await turn('three', 3)();
    await turn('one', 1)();
    const s = await interleave(ctx.quick ? 4 : 12, { three: turn('three', 3), one: turn('one', 1) });
    return [
      figure('parallel_tools', 'parallel_tools.three', `turn with three ${DELAY_MS} ms web searches in one message`, 'ms', s.three),
      figure('parallel_tools', 'parallel_tools.one', `turn with one ${DELAY_MS} ms web search`, 'ms', s.one),
      figure('parallel_tools', 'parallel_tools.ratio', 'three concurrent read-only calls ÷ one (paired)', '×', pairedRatio(s.three, s.one), { below: 1.3, targetText: '< 1.3×' }),
    ];
  } finally {
    pepe.dispose();
    await new Promise<void>((r) => server.close(() => r()));
  }
}
