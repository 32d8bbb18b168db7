import { homedir } from 'node:os';
import { constants } from 'node:os';
import { isAbsolute } from 'node:path';
import { execa } from 'execa';
import { confinedCommand, detectConfinement, PidsCgroup, processLimitPrefix, sandboxPolicy, type ConfinementStatus } from '../../sandbox/index.js';
import type { SandboxResult } from '../contracts.js';
import { OutputCap } from './output-cap.js';

export type { ConfinementStatus } from '../../sandbox/index.js';

export interface SandboxRunOptions {
  cwd: string;
  /** The writable root (the workspace, or the agent's home); defaults to `cwd`. */
  workspace?: string;
  /** Already reduced to the allow-list (spec 8); the child inherits nothing else. */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Live output, for surfaces that show the command as it runs (the VS Code terminal). */
  onData?: (chunk: string) => void;
  maxOutputChars?: number;
  /** Run with the network (only for a call the person approved with its "network" risk shown). */
  network?: boolean;
}

export interface SandboxRunResult extends SandboxResult {
  timedOut: boolean;
  cancelled: boolean;
}

export interface BuiltinSandboxOptions {
  /** $PEPE_HOME: hidden from every command. */
  pepeHome?: string;
  /** The user's home folder (default: the OS's): secret dotfiles hidden, the rest read-only. */
  home?: string;
  /** How to find out whether commands can be confined (default: probe the OS once). */
  detect?: () => Promise<ConfinementStatus>;
  maxProcesses?: number;
}

export const DEFAULT_SANDBOX_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_CHARS = 128 * 1024;

/**
 * The built-in sandbox occupant (spec 3.5): runs the program confined (bubblewrap on Linux,
 * Seatbelt on macOS; see src/core/sandbox), as `wrapper program argv…` when `sandbox.wrapper` is
 * set (the wrapper runs inside the confinement too). Where nothing can confine, it still runs the
 * command as a plain child process and `status()` says so with the reason, so the barrier asks
 * for every command. Output is stdout and stderr interleaved, capped keeping head and tail; the
 * exit status is exact (128+n for a signal, 127 when the program does not exist); at the deadline
 * the whole process group is killed, and under confinement everything the command started dies
 * with it.
 */
export class BuiltinSandbox {
  private readonly detect: () => Promise<ConfinementStatus>;

  constructor(
    private readonly wrapper: () => string | undefined = () => undefined,
    private readonly options: BuiltinSandboxOptions = {},
  ) {
    this.detect = options.detect ?? detectConfinement;
  }

  /** Whether commands run confined now; when not, why (shown by slot list, doctor and the Slots tree). */
  status(): Promise<ConfinementStatus> {
    return this.detect();
  }

  async run(program: string, argv: string[], opts: SandboxRunOptions): Promise<SandboxRunResult> {
    const wrapper = this.wrapper();
    const command = wrapper ? [wrapper, program, ...argv] : [program, ...argv];
    const status = await this.status();
    if (!status.confined) return this.spawn('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', ...command], opts.env, opts);

    const policy = sandboxPolicy({
      workspace: opts.workspace ?? opts.cwd,
      cwd: opts.cwd,
      pepeHome: this.options.pepeHome,
      home: this.options.home ?? homedir(),
      network: opts.network === true,
      visible: wrapper && isAbsolute(wrapper) ? [wrapper] : [],
      maxProcesses: this.options.maxProcesses,
    });
    // Inside: set the process limit, join stderr to stdout (two pipes cannot keep the order in
    // which a program interleaves them), then exec the command. The shell parses nothing else.
    const inner = ['/bin/sh', '-c', `${processLimitPrefix(policy)}exec "$@" 2>&1`, 'sh', ...command];
    const { file, args } = confinedCommand(policy, inner);
    // The host's temp folder is not there inside: the private /tmp is.
    const env = status.backend === 'bubblewrap' && opts.env.TMPDIR !== undefined ? { ...opts.env, TMPDIR: '/tmp' } : opts.env;
    // As root, RLIMIT_NPROC does not apply: a pids cgroup holds the limit where one can be made.
    const cgroup = status.backend === 'bubblewrap' && process.getuid?.() === 0 && policy.maxProcesses ? PidsCgroup.create(policy.maxProcesses) : null;
    try {
      if (!cgroup) return await this.spawn(file, args, env, opts);
      // Join the group before bubblewrap starts, so nothing it forks is ever outside it.
      return await this.spawn('/bin/sh', ['-c', 'echo $$ > "$0" && exec "$@"', cgroup.procsFile, file, ...args], env, opts);
    } finally {
      cgroup?.dispose();
    }
  }

  private async spawn(file: string, args: string[], env: Record<string, string>, opts: SandboxRunOptions): Promise<SandboxRunResult> {
    const cap = new OutputCap(opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
    const child = execa(file, args, {
      cwd: opts.cwd,
      env,
      extendEnv: false,
      all: true,
      buffer: false,
      stdin: 'ignore',
      reject: false,
      detached: true, // its own process group, so a deadline kills grandchildren too
      encoding: 'utf8',
    });
    let timedOut = false;
    let cancelled = false;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      killGroup();
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.all?.setEncoding('utf8');
    child.all?.on('data', (chunk: string) => {
      cap.push(chunk);
      opts.onData?.(chunk);
    });
    const result = await child;
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);

    let exitStatus: number;
    let output = cap.text();
    if (typeof result.exitCode === 'number') {
      exitStatus = result.exitCode;
    } else if (result.signal) {
      exitStatus = 128 + (constants.signals[result.signal as keyof typeof constants.signals] ?? 0);
    } else {
      exitStatus = 1;
      output += `${output ? '\n' : ''}${result.message}`;
    }
    if (timedOut) output += `\n[pepe: timed out after ${opts.timeoutMs} ms; the process group was killed]`;
    if (cancelled) output += '\n[pepe: cancelled; the process group was killed]';
    return { output, exitStatus, timedOut, cancelled };
  }
}
