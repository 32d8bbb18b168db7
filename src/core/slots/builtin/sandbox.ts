import { constants } from 'node:os';
import { execa } from 'execa';
import type { SandboxResult } from '../contracts.js';
import { OutputCap } from './output-cap.js';

export interface SandboxRunOptions {
  cwd: string;
  /** Already scrubbed of secrets (spec 8); the child inherits nothing else. */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Live output, for surfaces that show the command as it runs (the VS Code terminal). */
  onData?: (chunk: string) => void;
  maxOutputChars?: number;
  /** Run with the network (only for a call the person approved with its "network" risk shown). */
  network?: boolean;
}

/** Whether the built-in sandbox confines commands right now, and how (spec 3.5). */
export type ConfinementStatus = { confined: true; backend: 'bubblewrap' | 'seatbelt' } | { confined: false; reason: string };

export interface SandboxRunResult extends SandboxResult {
  timedOut: boolean;
  cancelled: boolean;
}

export const DEFAULT_SANDBOX_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_CHARS = 128 * 1024;

/**
 * The built-in sandbox occupant (spec 3.5): runs the program directly with execa (no shell unless
 * the caller asks for one), or as `wrapper program argv…` when `sandbox.wrapper` is set. Output is
 * stdout and stderr interleaved, capped keeping head and tail; the exit status is exact (128+n for
 * a signal, 127 when the program does not exist); at the deadline the whole process group is killed.
 */
export class BuiltinSandbox {
  constructor(private readonly wrapper: () => string | undefined = () => undefined) {}

  /** Today every command runs as a plain child process: say so, so the barrier asks for all of them. */
  async status(): Promise<ConfinementStatus> {
    return { confined: false, reason: 'commands run as a plain child process of Pepe' };
  }

  async run(program: string, argv: string[], opts: SandboxRunOptions): Promise<SandboxRunResult> {
    const wrapper = this.wrapper();
    const command = wrapper ? [wrapper, program, ...argv] : [program, ...argv];
    const cap = new OutputCap(opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
    // Two pipes cannot keep the order in which a program interleaves stdout and stderr, so stderr
    // is joined to stdout inside the child. The shell only execs its arguments; it parses nothing.
    const child = execa('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', ...command], {
      cwd: opts.cwd,
      env: opts.env,
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
