/**
 * A stand-in for the `pepe` process in the sandbox attack suite: it holds a secret in its
 * environment, its command line and its memory, runs each attack command through the real
 * built-in sandbox (confined, or as a plain child process for the control runs), and prints the
 * results as one JSON line. Run as: node --import tsx sandbox-host.ts '<json>' --secret=<value>
 */
import { allowListEnv } from '../../../src/core/secrets/scrub.js';
import { BuiltinSandbox, type SandboxRunResult } from '../../../src/core/slots/builtin/sandbox.js';

interface HostRequest {
  mode: 'confined' | 'unconfined';
  workspace: string;
  cwd?: string;
  pepeHome: string;
  home: string;
  maxProcesses?: number;
  runs: { command: string; network?: boolean; timeoutMs?: number }[];
}

const request = JSON.parse(process.argv[2]!) as HostRequest;
// Kept alive in this process's heap as well as in its environment and argv.
const secretInHeap = `heap:${process.env.PEPE_ATTACK_API_KEY}`;

const sandbox = new BuiltinSandbox(() => undefined, {
  pepeHome: request.pepeHome,
  home: request.home,
  maxProcesses: request.maxProcesses,
  detect: request.mode === 'unconfined' ? async () => ({ confined: false, reason: 'control run: a plain child process' }) : undefined,
});

const results: (SandboxRunResult & { status: unknown })[] = [];
for (const run of request.runs) {
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
