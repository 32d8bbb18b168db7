/**
 * Plugin host process (issue 12): a plugin call through the out-of-process host vs a bare
 * child-process message round trip with the same payload, side by side; the same call with the
 * host confined (bubblewrap) and unconfined; and what starting a plugin process costs.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { FrameReader, encodeFrame } from '../../../src/core/plugins/framing.js';
import { PluginRegistry } from '../../../src/core/plugins/registry.js';
import { detectConfinement } from '../../../src/core/sandbox/index.js';
import { BENCH_MEMORY_PLUGIN, BENCH_PLUGIN_NAME } from '../../fixtures/plugins/bench-memory.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedDiff } from '../stats.js';

/** The smallest echo over the same channel and framing: what any out-of-process call costs. */
const ECHO = `
const s = new (require('node:net').Socket)({ fd: 3, readable: true, writable: true });
let buf = Buffer.alloc(0);
s.on('data', (c) => {
  buf = Buffer.concat([buf, c]);
  while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
    const n = buf.readUInt32BE(0);
    const msg = JSON.parse(buf.subarray(4, 4 + n).toString());
    buf = buf.subarray(4 + n);
    const out = Buffer.from(JSON.stringify({ id: msg.id, value: msg.args }));
    const h = Buffer.alloc(4); h.writeUInt32BE(out.length, 0);
    s.write(Buffer.concat([h, out]));
  }
});
s.on('close', () => process.exit(0));
`;

function bareEcho(): { call: (args: unknown[]) => Promise<unknown>; close: () => void } {
  const child = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'ignore', 'inherit', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
  const channel = child.stdio[3] as Socket;
  const waiting = new Map<number, (v: unknown) => void>();
  const reader = new FrameReader(4 * 1024 * 1024, (m) => {
    const { id, value } = m as { id: number; value: unknown };
    waiting.get(id)?.(value);
    waiting.delete(id);
  });
  channel.on('data', (c: Buffer) => reader.push(c));
  let next = 1;
  return {
    call: (args) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        channel.write(encodeFrame({ type: 'call', id, fn: 'search', args }));
      }),
    close: () => child.kill('SIGKILL'),
  };
}

export async function pluginHostSuite(ctx: SuiteContext): Promise<Figure[]> {
  const home = join(ctx.tmp, 'plugin-host');
  mkdirSync(join(home, 'plugins'), { recursive: true });
  const file = join(home, 'plugins', `${BENCH_PLUGIN_NAME}.mjs`);
  writeFileSync(file, BENCH_MEMORY_PLUGIN);
  const confinement = await detectConfinement();
  const unconfinedOnly = { status: async () => ({ confined: false as const, reason: 'bench: unconfined variant' }), command: () => ({ file: '', args: [] }) };
  const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME });
  const confined = new PluginRegistry(join(home, 'plugins'), { env });
  const plain = new PluginRegistry(join(home, 'plugins'), { env, confiner: unconfinedOnly });
  await confined.list();
  await plain.list();
  const hostConfined = confined.workerFor(file)!;
  const hostPlain = plain.workerFor(file)!;
  const echo = bareEcho();

  const batch = ctx.quick ? 50 : 200;
  const perCall = (fn: (i: number) => Promise<unknown>) => async () => {
    const t = performance.now();
    for (let i = 0; i < batch; i++) await fn(i);
    return (performance.now() - t) / batch;
  };
  const args = (i: number) => ['a', `q${i}`, { limit: 5 }];
  for (let i = 0; i < 300; i++) {
    await echo.call(args(i));
    await hostPlain.call('search', args(i), 3000);
    await hostConfined.call('search', args(i), 3000);
  }
  const rounds = ctx.quick ? 8 : 30;
  const rt = await interleave(rounds, {
    bare: perCall((i) => echo.call(args(i))),
    host: perCall((i) => hostPlain.call('search', args(i), 3000)),
    confined: perCall((i) => hostConfined.call('search', args(i), 3000)),
  });

  // Start-up: from spawn to the plugin loaded, confined and not.
  const starts = ctx.quick ? 3 : 10;
  const startup = await interleave(starts, {
    plain: async () => {
      hostPlain.recycle();
      const t = performance.now();
      await hostPlain.load();
      return performance.now() - t;
    },
    confined: async () => {
      hostConfined.recycle();
      const t = performance.now();
      await hostConfined.load();
      return performance.now() - t;
    },
  });
  echo.close();
  confined.dispose();
  plain.dispose();

  const backend = confinement.confined ? confinement.backend : `not confined here: ${confinement.reason}`;
  return [
    figure('plugin host', 'plugin_host.bare', 'bare child-process message round trip (same framing, echo)', 'ms', rt.bare),
    figure('plugin host', 'plugin_host.call', 'memory plugin call through the plugin host process, unconfined', 'ms', rt.host),
    figure('plugin host', 'plugin_host.call_confined', `same call, host confined (${backend}): what Pepe runs`, 'ms', rt.confined),
    figure('plugin host', 'plugin_host.added', 'added per call by the host as Pepe runs it (paired: confined host − bare)', 'ms', pairedDiff(rt.confined, rt.bare), { below: 0.2, targetText: '< 0.2 ms' }),
    figure('plugin host', 'plugin_host.added_unconfined', 'added per call by the host alone (paired: unconfined host − bare)', 'ms', pairedDiff(rt.host, rt.bare), { below: 0.2, targetText: '< 0.2 ms' }),
    figure('plugin host', 'plugin_host.start', 'plugin process start until loaded, unconfined', 'ms', startup.plain),
    figure('plugin host', 'plugin_host.start_confined', 'plugin process start until loaded, confined', 'ms', startup.confined),
  ];
}
