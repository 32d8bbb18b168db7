import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { bubblewrapArgs, setBubblewrapVersion } from './bubblewrap.js';
import { confinementKey, forgetCachedConfinement, readCachedConfinement, writeCachedConfinement } from './detect-cache.js';
import { withoutInherited } from './inherited-fds.js';
import { SANDBOX_EXEC, seatbeltArgs } from './seatbelt.js';

/** Whether commands can be confined here, and how (spec 3.5). */
export type ConfinementStatus = { confined: true; backend: 'bubblewrap' | 'seatbelt' } | { confined: false; reason: string };

let cached: Promise<ConfinementStatus> | undefined;
let bwrapPath: string | undefined;

/**
 * Probes that the backend really runs: the program is there AND a trial confined `true` succeeds
 * (user namespaces may be refused by the kernel, a container or an AppArmor rule). The answer is
 * kept for this process and, keyed by what decides it, across processes (detect-cache.ts);
 * `resetConfinementCache` is for tests, `{ fresh: true }` skips the stored answer.
 */
export function detectConfinement(options: { fresh?: boolean } = {}): Promise<ConfinementStatus> {
  if (options.fresh) cached = probe(false);
  cached ??= probe(true);
  return cached;
}

/**
 * A confined start failed in a way the backend reports (its own error, not the command's): the
 * answer may be stale, so it is dropped here and on disk and the next call probes again. The
 * failed command is not retried unconfined: it stays an error.
 */
export function confinementFailed(): void {
  cached = undefined;
  forgetCachedConfinement();
}

export function resetConfinementCache(): void {
  cached = undefined;
  bwrapPath = undefined;
}

/** The bubblewrap program found by `detectConfinement` (or on PATH). */
export function bubblewrapProgram(): string {
  bwrapPath ??= which('bwrap') ?? 'bwrap';
  return bwrapPath;
}

async function probe(useStored: boolean): Promise<ConfinementStatus> {
  if (process.platform === 'linux') {
    const bwrap = which('bwrap');
    if (!bwrap) return { confined: false, reason: 'bubblewrap (bwrap) is not installed; install the "bubblewrap" package to confine commands' };
    bwrapPath = bwrap;
    return remembered(bwrap, useStored, async () => {
      const version = (await run(bwrap, ['--version'])).stdout.trim().slice(0, 200);
      setBubblewrapVersion(version);
      const policy = { cwd: '/', writable: [], readOnly: [], hidden: [], network: false };
      const trial = await run(bwrap, bubblewrapArgs(policy, ['/bin/sh', '-c', 'exit 0']));
      if (trial.ok) return { status: { confined: true, backend: 'bubblewrap' }, version };
      return { status: { confined: false, reason: `bubblewrap is installed but cannot create its namespaces here (${trial.detail}); user namespaces may be disabled` }, version };
    });
  }
  if (process.platform === 'darwin') {
    if (!executable(SANDBOX_EXEC)) return { confined: false, reason: `${SANDBOX_EXEC} is missing` };
    return remembered(SANDBOX_EXEC, useStored, async () => {
      const policy = { cwd: '/', writable: [], readOnly: [], hidden: [], network: false };
      const trial = await run(SANDBOX_EXEC, seatbeltArgs(policy, ['/usr/bin/true']));
      if (trial.ok) return { status: { confined: true, backend: 'seatbelt' } };
      return { status: { confined: false, reason: `sandbox-exec refused the profile (${trial.detail})` } };
    });
  }
  return { confined: false, reason: `no confinement backend for ${process.platform} (bubblewrap on Linux, Seatbelt on macOS)` };
}

/** The stored answer for `program` when it still holds, else a trial run (whose answer is stored). */
async function remembered(program: string, useStored: boolean, trial: () => Promise<{ status: ConfinementStatus; version?: string }>): Promise<ConfinementStatus> {
  const key = confinementKey(program);
  if (useStored && key) {
    const hit = readCachedConfinement(key);
    if (hit) {
      if (hit.version !== undefined) setBubblewrapVersion(hit.version);
      return hit.status;
    }
  }
  const { status, version } = await trial();
  if (key) writeCachedConfinement({ key, at: Date.now(), status, version });
  return status;
}

/** The probe's command, given /dev/null for the descriptors Pepe was started with (inherited-fds.ts), as every child is. */
function run(file: string, args: string[]): Promise<{ ok: boolean; detail: string; stdout: string }> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const child = spawn(file, args, { env: { PATH: '/usr/bin:/bin' }, stdio: withoutInherited(['ignore', 'pipe', 'pipe']) });
    const timer = setTimeout(() => child.kill('SIGTERM'), 10_000);
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    const done = (problem: string | null) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString();
      if (problem === null) return resolve({ ok: true, detail: '', stdout });
      resolve({ ok: false, detail: (Buffer.concat(err).toString().trim().split('\n').pop() || problem).slice(0, 300), stdout });
    };
    child.on('error', (e) => done(e.message));
    child.on('close', (code, signal) => done(code === 0 ? null : `${file} exited with ${signal ?? `status ${code}`}`));
  });
}

function which(name: string): string | null {
  // System folders first, and never a relative PATH entry: a workspace must not supply its own "bwrap".
  const dirs = ['/usr/bin', '/bin', '/usr/local/bin', ...(process.env.PATH ?? '').split(delimiter)];
  for (const dir of dirs) {
    if (!dir || !isAbsolute(dir)) continue;
    const p = join(dir, name);
    if (executable(p)) return p;
  }
  return null;
}

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
