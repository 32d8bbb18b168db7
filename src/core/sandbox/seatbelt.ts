import { dirname } from 'node:path';
import { orderedMounts, within, type ConfinementPolicy } from './policy.js';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** Mach services that hand out the login keychain's secrets. */
const KEYCHAIN_SERVICES = ['com.apple.SecurityServer', 'com.apple.securityd', 'com.apple.secd', 'com.apple.security.agent'];

/**
 * A Seatbelt profile (macOS `sandbox-exec`) for the same policy (spec 3.5). Later rules win in
 * Seatbelt, so the policy's places follow in the same shallow-first order as on Linux.
 * What macOS cannot give here: a private process table (other processes stay visible, their
 * environment is refused by the `process-info` rule), a private /tmp (writes to the shared temp
 * folders are refused instead; the command gets a per-run TMPDIR inside the workspace only if the
 * caller provides one), a process limit, and killing what escaped the process group.
 */
export function seatbeltProfile(policy: ConfinementPolicy): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    // Nothing may write, except the rules below.
    '(deny file-write*)',
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/ttys[0-9]+$"))',
    // Other processes: no environment, no memory, no signals.
    '(deny process-info* (target others))',
    '(deny signal (target others))',
    '(deny mach-task-name (target others))',
    `(deny mach-lookup ${KEYCHAIN_SERVICES.map((s) => `(global-name ${str(s)})`).join(' ')})`,
  ];
  if (policy.network) {
    // The network, but not the host's local sockets (ssh-agent, Docker): only DNS's.
    lines.push('(deny network-outbound (remote unix-socket))', '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))');
  } else {
    lines.push('(deny network*)');
  }
  for (const { path, kind } of orderedMounts(policy)) {
    const where = `(subpath ${str(macPath(path))})`;
    if (kind === 'writable') lines.push(`(allow file-read* file-write* ${where})`);
    else if (kind === 'readOnly') lines.push(`(allow file-read* ${where})`, `(deny file-write* ${where})`);
    else lines.push(`(deny file-read* file-write* ${where})`);
  }
  // A protected path cannot be swapped by renaming a folder above it (`mv .git .git-old`).
  for (const p of [...policy.readOnly, ...policy.hidden]) {
    for (const w of policy.writable) {
      if (p === w || !within(p, w)) continue;
      for (let a = p; a !== w && within(a, w); a = dirname(a)) lines.push(`(deny file-write* (literal ${str(macPath(a))}))`);
    }
  }
  return `${[...new Set(lines)].join('\n')}\n`;
}

/** `sandbox-exec -p PROFILE argv…` (cwd is set by the caller when it spawns). */
export function seatbeltArgs(policy: ConfinementPolicy, argv: string[]): string[] {
  return ['-p', seatbeltProfile(policy), ...argv];
}

/** /tmp, /var and /etc are links into /private on macOS; Seatbelt matches the real path. */
function macPath(p: string): string {
  return /^\/(tmp|var|etc)(\/|$)/.test(p) ? `/private${p}` : p;
}

/** An SBPL string literal. */
function str(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
