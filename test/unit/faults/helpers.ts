import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { CLI } from '../helpers/cli.js';

export const FIXTURES = join(import.meta.dirname, '../../fixtures/faults');
export const TICK_MONITOR = join(FIXTURES, 'tick-monitor.cjs');
export const PAUSE_WRITE = join(FIXTURES, 'pause-config-write.cjs');

export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** Longest main-thread pause (ms, wall clock), from the preloaded ticker; null if it did not report. */
  maxGapMs: number | null;
  /** Longest time the main thread was really blocked (busy and on a CPU: stall-meter.cjs); null if no report. */
  maxBlockedMs: number | null;
  timedOut: boolean;
}

/** Runs the real `pepe` bundle with PEPE_HOME=home (also its cwd), a tick monitor preloaded. */
export async function pepe(home: string, args: string[], opts: { env?: Record<string, string>; timeoutMs?: number; preload?: string[]; nodeOptions?: string[] } = {}): Promise<Run> {
  const tickFile = join(home, `.tick-${process.hrtime.bigint()}.json`);
  const requires = [...[TICK_MONITOR, ...(opts.preload ?? [])].map((p) => `--require ${p}`), ...(opts.nodeOptions ?? [])].join(' ');
  const started = performance.now();
  const r = await execa('node', [CLI, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home, NODE_OPTIONS: requires, PEPE_TICK_FILE: tickFile, ...opts.env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    // Only a safety net against a lost process: stalls are measured as blocked time, not by this.
    timeout: opts.timeoutMs ?? 120_000,
    killSignal: 'SIGKILL',
  });
  const ms = performance.now() - started;
  let maxGapMs: number | null = null;
  let maxBlockedMs: number | null = null;
  if (existsSync(tickFile)) {
    ({ maxGapMs, maxBlockedMs } = JSON.parse(readFileSync(tickFile, 'utf8')) as { maxGapMs: number; maxBlockedMs: number });
    rmSync(tickFile, { force: true });
  }
  return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr, ms, maxGapMs, maxBlockedMs, timedOut: !!r.timedOut };
}

export interface LogLine {
  kind: string;
  [k: string]: unknown;
}

export function logLines(home: string): LogLine[] {
  const file = join(home, 'logs', 'pepe.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}

/** `--json` output of `pepe run`: one event per line. */
export function events(stdout: string): Record<string, any>[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/** Runs `jobs` with at most `width` at a time; results in input order. */
export async function pool<T>(width: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}
