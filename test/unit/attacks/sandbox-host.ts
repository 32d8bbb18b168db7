/**
 * A stand-in for the `pepe` process in the sandbox attack suite: it holds a secret in its
 * environment, its command line and its memory, runs each attack command through the real
 * built-in sandbox (confined, or as a plain child process for the control runs), and prints the
 * results as one JSON line. Run as: node --import tsx sandbox-host.ts '<json>' --secret=<value>
 */
import { allowListEnv } from '../../../src/core/secrets/scrub.js';
import { BuiltinSandbox, type SandboxRunOptions, type SandboxRunResult } from '../../../src/core/slots/builtin/sandbox.js';
import { bash } from '../../../src/core/tools/shell.js';
import type { ToolContext } from '../../../src/core/tools/tool.js';

interface HostRequest {
  mode: 'confined' | 'unconfined';
  workspace: string;
  cwd?: string;
  pepeHome: string;
  home: string;
  maxProcesses?: number;
  /** `sandbox.readable` / `sandbox.writable`, as in config.json. */
  readable?: string[];
  writable?: string[];
  /** Run through the bash tool (its git report and taint), not the sandbox alone. */
  viaTool?: boolean;
  runs: { command: string; network?: boolean; timeoutMs?: number }[];
}

const request = JSON.parse(process.argv[2]!) as HostRequest;
// Kept alive in this process's heap as well as in its environment and argv.
const secretInHeap = `heap:${process.env.PEPE_ATTACK_API_KEY}`;

const sandbox = new BuiltinSandbox(() => undefined, {
  pepeHome: request.pepeHome,
  home: request.home,
  maxProcesses: request.maxProcesses,
  places: () => ({ readable: request.readable, writable: request.writable }),
  detect: request.mode === 'unconfined' ? async () => ({ confined: false, reason: 'control run: a plain child process' }) : undefined,
});

const results: (SandboxRunResult & { status: unknown; taints?: string[] })[] = [];
for (const run of request.runs) {
  if (request.viaTool) {
    // The bash tool as the runtime calls it, with the slot service reduced to the built-in sandbox.
    const taints: string[] = [];
    const ctx = {
      agent: 'attacker',
      chain: ['attacker'],
      workspace: request.workspace,
      config: { sandbox: { readable: request.readable, writable: request.writable } },
      env: { ...process.env, HOME: request.home },
      signal: new AbortController().signal,
      emit: () => undefined,
      markOutsideContent: (source: string) => void taints.push(source),
      facts: { cwd: request.cwd ?? request.workspace },
      slots: { sandboxRun: async (_agent: string | null, program: string, argv: string[], opts: SandboxRunOptions) => ({ result: await sandbox.run(program, argv, opts) }) },
    } as unknown as ToolContext;
    const out = await bash.execute({ command: run.command }, ctx);
    results.push({ output: out.content, exitStatus: out.isError ? 1 : 0, timedOut: false, cancelled: false, status: await sandbox.status(), taints });
    continue;
  }
  const r = await sandbox.run('bash', ['-c', run.command], {
    cwd: request.cwd ?? request.workspace,
    workspace: request.workspace,
    env: { ...allowListEnv(process.env), HOME: request.home, HOST_PID: String(process.pid) },
    timeoutMs: run.timeoutMs ?? 15_000,
    network: run.network,
  });
  results.push({ ...r, status: await sandbox.status() });
}
process.stdout.write(`${JSON.stringify({ results, hostPid: process.pid, heapMarker: secretInHeap.length })}\n`);
