import { bubblewrapArgs } from './bubblewrap.js';
import { bubblewrapProgram } from './detect.js';
import type { ConfinementPolicy } from './policy.js';
import { SANDBOX_EXEC, seatbeltArgs } from './seatbelt.js';

export { bubblewrapProgram, confinementFailed, detectConfinement, resetConfinementCache, type ConfinementStatus } from './detect.js';
export { DEFAULT_MAX_PROCESSES, kindAt, sandboxPolicy, type ConfinementPolicy, type SandboxPolicyInput } from './policy.js';
export { gitControlChanges, scanGitControl, scanGitControlAsync, type GitControlScan } from './git-control.js';
export { expandHome, TOOLCHAIN_HOME_ENTRIES } from './home-view.js';
export { PidsCgroup, processLimitMethod, startGroupMoveWait, type ProcessLimitMethod } from './process-limit.js';
export { bubblewrapArgs, bubblewrapBaseArgs, bubblewrapPolicyArgs, bubblewrapSetsEnv } from './bubblewrap.js';
export { seatbeltProfile } from './seatbelt.js';

/**
 * The command line that runs `argv` confined by `policy` on this OS (spec 3.5): bubblewrap on
 * Linux, sandbox-exec on macOS. Call `detectConfinement()` first: this builds the command, it does
 * not prove the backend works. Throws where there is no backend, so nothing runs unconfined by
 * mistake. The process limit is not part of the command line (see PidsCgroup and
 * `processLimitPrefix`); on Seatbelt the caller sets the working folder when it spawns.
 */
export function confinedCommand(policy: ConfinementPolicy, argv: string[], platform: NodeJS.Platform = process.platform): { file: string; args: string[] } {
  if (argv.length === 0) throw new Error('confinedCommand needs a program to run');
  if (platform === 'linux') return { file: bubblewrapProgram(), args: bubblewrapArgs(policy, argv) };
  if (platform === 'darwin') return { file: SANDBOX_EXEC, args: seatbeltArgs(policy, argv) };
  throw new Error(`no confinement backend for ${platform}`);
}

/**
 * Shell words that set RLIMIT_NPROC before exec'ing the rest (`sh -c '<prefix> exec "$@"'`).
 * In the sandbox's own user namespace the limit counts only its processes; it is not applied to
 * the real root user (the cgroup covers that) and is skipped on macOS, where it counts all of
 * the user's processes.
 */
export function processLimitPrefix(policy: Pick<ConfinementPolicy, 'maxProcesses'>, platform: NodeJS.Platform = process.platform): string {
  const n = policy.maxProcesses;
  if (platform !== 'linux' || n === undefined || !Number.isInteger(n) || n <= 0) return '';
  return `ulimit -u ${n} 2>/dev/null || ulimit -p ${n} 2>/dev/null; `;
}
