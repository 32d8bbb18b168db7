/**
 * MCP (issue 18): a warm MCP tool call through Pepe's whole path (the tool invoker: validation, the
 * barrier with the tool pre-approved, the call, the result made outside content and capped) against
 * the same call made directly with the SDK client, on the same running server-everything process.
 * The approval is the one a person saves by answering "Always" (the tool in the agent's
 * `auto_approve` in config.json). An MCP result is outside content: once one is in, the run is
 * tainted and every pre-approval is withdrawn for the rest of that run (spec 5.4), so each measured
 * call gets a fresh run state, as the first MCP call of a turn does.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createPepe } from '../../../src/core/pepe.js';
import { newRunState, PermissionBarrier } from '../../../src/core/permissions/index.js';
import { invokeTool, type InvokeEnv } from '../../../src/core/runtime/invoke-tool.js';
import type { Tool, ToolContext } from '../../../src/core/tools/tool.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedDiff, summarize } from '../stats.js';

export async function mcpSuite(ctx: SuiteContext): Promise<Figure[]> {
  const home = join(ctx.tmp, 'mcp');
  mkdirSync(home, { recursive: true });
  const require = createRequire(import.meta.url);
  const main = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
  const pepe = await createPepe({ home, env: {}, workspace: home });
  try {
    await pepe['store'].update((raw) => {
      raw.mcp_servers = { ev: { command: process.execPath, args: [main, 'stdio'] } };
      raw.agents = { a: { model: 'mock', mcp: ['ev'], auto_approve: ['mcp__ev__echo'] } };
    });
    await pepe.reload();
    const agentConfig = pepe.config.agents!.a!;
    const { tools } = await pepe['mcp'].toolsFor(agentConfig);
    const byName = new Map<string, Tool<any>>(tools.map((t) => [t.name, t]));
    if (!byName.has('mcp__ev__echo')) throw new Error('server-everything offered no echo tool');
    // The connection's own SDK client: the direct call uses the very same process and pipe.
    const client = (pepe['mcp'].connection('ev') as unknown as { client: Client }).client;

    const signal = new AbortController().signal;
    const context = {
      agent: 'a', agentConfig, chain: ['a'], sessionId: 'bench', workspace: home, signal, config: pepe.config, env: {}, paths: pepe.paths,
      slots: pepe['slots'], builtins: pepe['builtins'], emit: () => undefined, markOutsideContent: () => undefined, workspaceTrusted: true,
    } as ToolContext;
    const barrier = new PermissionBarrier({ persistAlwaysAllow: async () => undefined });
    const env = (): InvokeEnv => ({ context, barrier, run: newRunState(), sandbox: async () => ({ confined: true }) });

    const batch = ctx.quick ? 20 : 100;
    const perCall = (fn: (i: number) => Promise<unknown>) => async () => {
      const t = performance.now();
      for (let i = 0; i < batch; i++) await fn(i);
      return (performance.now() - t) / batch;
    };
    const direct = (i: number) => client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
    const throughPepe = async (i: number) => {
      const r = await invokeTool(byName, { id: `c${i}`, name: 'mcp__ev__echo', arguments: { message: `m${i}` } }, env());
      if (r.stage !== 'ran') throw new Error(`not run: ${r.content}`);
    };
    for (let i = 0; i < 200; i++) {
      await direct(i);
      await throughPepe(i);
    }
    const rounds = ctx.quick ? 6 : 25;
    const samples = await interleave(rounds, { direct: perCall(direct), pepe: perCall(throughPepe) });
    ctx.log(`mcp: direct ${summarize(samples.direct).median.toFixed(3)} ms, through Pepe ${summarize(samples.pepe).median.toFixed(3)} ms per call`);
    return [
      figure('mcp', 'mcp_direct_call', 'warm MCP tool call, SDK client directly (server-everything echo, stdio)', 'ms', samples.direct),
      figure('mcp', 'mcp_pepe_call', 'warm MCP tool call through the tool invoker (barrier, outside-content wrapping, cap)', 'ms', samples.pepe, {
        note: 'pre-approved by a saved "Always" (auto_approve in config.json); each call is the first MCP call of its run, since an MCP result taints the run and later calls in it are asked',
      }),
      figure('mcp', 'mcp_overhead', "Pepe's overhead per warm MCP call over the direct SDK call", 'ms', pairedDiff(samples.pepe, samples.direct), { below: 2, targetText: '< 2 ms' }),
    ];
  } finally {
    await pepe['mcp'].dispose();
    pepe.dispose();
  }
}
