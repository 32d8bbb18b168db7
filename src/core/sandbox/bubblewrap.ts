import { existsSync, lstatSync, statSync } from 'node:fs';
import { orderedMounts, type ConfinementPolicy } from './policy.js';

/** What the installed bubblewrap supports (set from its version when confinement is detected). */
const features = { disableUserns: true, setenv: false };

/** `bubblewrap 0.8.0` → the options that version knows. */
export function setBubblewrapVersion(versionText: string): void {
  const m = /(\d+)\.(\d+)/.exec(versionText);
  if (!m) return;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  features.disableUserns = major > 0 || minor >= 8;
  features.setenv = major > 0 || minor >= 5;
}

/** Whether this bubblewrap takes `--clearenv` and `--setenv` (0.5 and later). */
export function bubblewrapSetsEnv(): boolean {
  return features.setenv;
}

/** Host places that hold live credentials as sockets (agents, container daemons, session buses). */
const RUNTIME_DIRS = ['/run', '/var/run'];
/** Kept visible under the hidden /run: DNS resolution when the network is allowed. */
const RUN_KEEP = ['/run/systemd/resolve', '/run/resolvconf'];

/**
 * The bubblewrap argument list for a policy (spec 3.5, Linux):
 * - own user (all capabilities dropped, no nested user namespaces), PID, IPC, UTS and, unless
 *   the policy allows the network, network namespaces; a fresh /proc shows only the command's
 *   own processes; a minimal /dev; a private /tmp;
 * - the root filesystem read-only; /run hidden (it holds the ssh-agent, container and bus sockets);
 * - the policy's places, shallow first, so a deeper rule wins over the folder that contains it;
 * - `--die-with-parent` and `--new-session` (no terminal to inject keystrokes into); when the
 *   command ends, the namespace's init exits and the kernel kills everything left in it.
 * It is `bubblewrapBaseArgs()`, then `bubblewrapPolicyArgs(policy)`, then the command.
 */
export function bubblewrapArgs(policy: ConfinementPolicy, argv: string[]): string[] {
  return [...bubblewrapBaseArgs(), ...bubblewrapPolicyArgs(policy), '--', ...argv];
}

/** What every command gets, whatever its policy: the namespaces but the network's, and the base mounts. */
export function bubblewrapBaseArgs(): string[] {
  const args = [
    '--unshare-user',
    // Hardening only (bubblewrap 0.8+): a nested user namespace could not unlock these mounts anyway.
    ...(features.disableUserns ? ['--disable-userns'] : []),
    '--cap-drop',
    'ALL',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
    '--new-session',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  for (const dir of RUNTIME_DIRS) {
    if (isRealDir(dir)) args.push('--tmpfs', dir);
  }
  for (const keep of RUN_KEEP) if (isRealDir(keep)) args.push('--ro-bind', keep, keep);
  return args;
}

/** What the policy adds, after the base: the network namespace (unless allowed), its places, the working folder. */
export function bubblewrapPolicyArgs(policy: ConfinementPolicy): string[] {
  const args = policy.network ? [] : ['--unshare-net'];
  const remount: string[] = [];
  for (const { path, kind } of orderedMounts(policy)) {
    if (kind === 'writable') {
      if (existsSync(path)) args.push('--bind', path, path);
    } else if (kind === 'readOnly') {
      if (existsSync(path)) args.push('--ro-bind', path, path);
    } else {
      const type = kindOf(path);
      if (type === 'file') args.push('--ro-bind', '/dev/null', path);
      else if (type === 'dir' || type === 'missing') {
        // An empty folder in its place, made read-only once every deeper mount is in.
        args.push('--tmpfs', path);
        remount.push(path);
      }
      // A dangling link points nowhere: nothing to hide.
    }
  }
  for (const path of remount) args.push('--remount-ro', path);
  args.push('--chdir', policy.cwd);
  return args;
}

function isRealDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

function kindOf(p: string): 'file' | 'dir' | 'missing' | 'dangling' {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    try {
      lstatSync(p);
      return 'dangling';
    } catch {
      return 'missing';
    }
  }
}
