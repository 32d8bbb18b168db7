import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { scanGitControl, type GitControlScan } from './git-control.js';
import { credentialPaths, expandHome, hostSockets, TOOLCHAIN_HOME_ENTRIES } from './home-view.js';
import { within } from './paths.js';

export { within } from './paths.js';

/**
 * What a confined command may touch (spec 3.5). Every path is absolute. Later, deeper entries win
 * over shallower ones (a writable workspace inside a hidden folder is visible; `.git/hooks` inside
 * the writable workspace stays read-only); at the same path the more restrictive kind wins.
 */
export interface ConfinementPolicy {
  /** Where the command starts. */
  cwd: string;
  /** The only places it may write (the workspace). Everything else is read-only at best. */
  writable: string[];
  /** Kept read-only even inside a writable place (`.git/config`, `.git/hooks`, dotfiles). */
  readOnly: string[];
  /** Invisible: an empty folder or an empty file in their place ($PEPE_HOME, ~/.ssh, …). */
  hidden: string[];
  /** Reach the network (only for a command the person allowed with its "network" risk). */
  network: boolean;
  /** At most this many processes at once inside (where the backend can enforce it). */
  maxProcesses?: number;
}

export const DEFAULT_MAX_PROCESSES = 512;

export interface SandboxPolicyInput {
  /** The writable root: the workspace (or the agent's home). */
  workspace: string;
  /** Where the command starts; inside the workspace. Defaults to the workspace. */
  cwd?: string;
  /** $PEPE_HOME: hidden (config with api_key_env names, approvals, plugins). */
  pepeHome?: string;
  /** The person's home folder: hidden, except the toolchains (TOOLCHAIN_HOME_ENTRIES), read-only. */
  home?: string;
  network: boolean;
  /** Files the command needs to see even inside hidden places (the sandbox wrapper program). */
  visible?: string[];
  /** What the person added (`sandbox.readable`, `sandbox.writable`); `~` is expanded. */
  readable?: string[];
  writable?: string[];
  /** The host's environment, for the places its variables name ($XDG_CONFIG_HOME, $KUBECONFIG, …). */
  hostEnv?: NodeJS.ProcessEnv;
  /** The git control scan of the writable places, when the caller already made it. */
  gitScan?: GitControlScan;
  /** Where the host's unix sockets are (default: /proc/net/unix); for tests. */
  sockets?: string[];
  maxProcesses?: number;
}

/** The built-in sandbox's policy for one command (spec 3.5, 8, 8.1). Only existing paths are listed. */
export function sandboxPolicy(input: SandboxPolicyInput): ConfinementPolicy {
  const workspace = real(input.workspace);
  const home = input.home && isAbsolute(input.home) ? input.home : undefined;
  const extraWritable = (input.writable ?? []).map((p) => expandHome(p, home)).filter((p) => isAbsolute(p) && existsSync(p));
  const extraReadable = (input.readable ?? []).map((p) => expandHome(p, home)).filter((p) => isAbsolute(p) && existsSync(p));
  const writable = [workspace, ...extraWritable.map(real)];
  const readOnly: string[] = [];
  const hidden: string[] = [];

  // Spec 8: the home folder is hidden whole; only toolchains show through, read-only.
  if (home && existsSync(home)) {
    const homeReal = real(home);
    const allowed = TOOLCHAIN_HOME_ENTRIES.map((e) => join(homeReal, e)).filter(exists);
    if (writable.some((w) => within(homeReal, w))) {
      // The workspace is the home folder (or holds it): every dotfile but the toolchains is hidden.
      for (const name of safeReaddir(homeReal)) if (name.startsWith('.') && !TOOLCHAIN_HOME_ENTRIES.includes(name)) hidden.push(join(homeReal, name));
    } else {
      hidden.push(homeReal);
      if (homeReal !== resolve(home)) hidden.push(resolve(home));
    }
    readOnly.push(...allowed);
    // Pepe's own runtime (a Node or editor installed under the home folder) runs plugins and MCP servers.
    const runtime = dirname(real(process.execPath));
    if (within(runtime, homeReal)) readOnly.push(runtime);
  }
  // A second layer: what the host's variables name, wherever it is ($XDG_CONFIG_HOME elsewhere, $KUBECONFIG).
  for (const p of credentialPaths(input.hostEnv ?? {})) {
    // Never a writable place itself (a variable naming the workspace must not blank it).
    if (!exists(p) || writable.includes(real(p))) continue;
    hidden.push(p);
    if (real(p) !== p) hidden.push(real(p));
  }

  // Spec 8.1: what decides what git runs, at any depth of every writable place, stays read-only.
  const given = input.gitScan;
  const scan = given && given.roots.length === writable.length && given.roots.every((r, i) => r === writable[i]) ? given : scanGitControl(writable);
  readOnly.push(...scan.control.filter((p) => writable.some((w) => within(p, w))));
  hidden.push(...scan.missingHooks.filter((p) => writable.some((w) => within(dirname(p), w)) && isDir(dirname(p))));

  if (input.pepeHome) {
    const ph = resolve(input.pepeHome);
    if (existsSync(ph)) {
      hidden.push(real(ph));
      if (real(ph) !== ph) hidden.push(ph);
    } else if (writable.some((w) => within(ph, w))) {
      // Not created yet but inside the workspace: a command must not create Pepe's config for it.
      hidden.push(ph);
    }
  }

  // What the person named is shown, over the hidden home (deeper rules win).
  readOnly.push(...extraReadable);
  for (const v of input.visible ?? []) if (existsSync(v)) readOnly.push(real(v));

  // Every unix socket a command could reach (a read-only mount does not stop a connection) is
  // covered, unless the person named it.
  const named = new Set([...extraReadable, ...extraWritable].map(real));
  const sofar = { cwd: workspace, writable, readOnly, hidden, network: input.network };
  // A folder bound in from a private place (a workspace under /tmp) brings its sockets with it.
  const bound = [...writable, ...readOnly];
  const boundIn = (p: string) => bound.some((m) => within(p, m));
  for (const sock of [...(input.sockets ?? hostSockets()), ...scan.sockets]) {
    if (!isAbsolute(sock) || named.has(sock) || !isSocket(sock)) continue;
    if (PRIVATE_PLACES.some((d) => within(sock, d)) && !boundIn(sock)) continue;
    if (kindAt(sofar, sock) !== 'hidden') hidden.push(sock);
  }

  const cwd = real(input.cwd ?? workspace);
  const protectedPaths = [...readOnly, ...hidden];
  return { cwd, writable: unique([...writable, ...pins(writable, protectedPaths)]), readOnly: unique(readOnly), hidden: unique(hidden), network: input.network, maxProcesses: input.maxProcesses ?? DEFAULT_MAX_PROCESSES };
}

/** Places every backend gives the command empty (bubblewrap: its own /tmp, /run): no host socket there, but in what is bound in. */
const PRIVATE_PLACES = process.platform === 'linux' ? ['/tmp', '/run', '/var/run', '/dev'] : [];

/**
 * Every existing folder between a writable root and a protected path inside it, bound onto
 * itself: a mount point cannot be renamed or removed, so a command cannot move `.git` aside,
 * make a new one with its own hooks, and leave that for the person's next commit.
 */
function pins(writable: string[], protectedPaths: string[]): string[] {
  const out: string[] = [];
  for (const p of protectedPaths) {
    for (const w of writable) {
      if (p === w || !within(p, w)) continue;
      for (let a = dirname(p); a !== w && within(a, w); a = dirname(a)) if (isDir(a)) out.push(a);
    }
  }
  return out;
}

export type MountKind = 'writable' | 'readOnly' | 'hidden';

/** Every path of a policy with its kind, in the order a backend must apply them (shallow first). */
export function orderedMounts(policy: ConfinementPolicy): { path: string; kind: MountKind }[] {
  const rank: Record<MountKind, number> = { writable: 0, readOnly: 1, hidden: 2 };
  const all = [
    ...policy.writable.map((path) => ({ path: resolve(path), kind: 'writable' as const })),
    ...policy.readOnly.map((path) => ({ path: resolve(path), kind: 'readOnly' as const })),
    ...policy.hidden.map((path) => ({ path: resolve(path), kind: 'hidden' as const })),
  ];
  return all.sort((a, b) => depth(a.path) - depth(b.path) || rank[a.kind] - rank[b.kind] || compareCodeUnits(a.path, b.path));
}

/**
 * Plain code-unit order: the same on every machine, and it does not start ICU's collator, which
 * `localeCompare` does (9–17 ms in the first confined command of a process).
 */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function depth(p: string): number {
  return p.split(sep).filter(Boolean).length;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // Not there yet: its real folder and its name.
    const parent = dirname(p);
    return parent === p ? p : join(real(parent), p.slice(parent.length + 1));
  }
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isSocket(p: string): boolean {
  try {
    return lstatSync(p).isSocket();
  } catch {
    return false;
  }
}

function safeReaddir(p: string): string[] {
  try {
    return readdirSync(p);
  } catch {
    return [];
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** What a policy makes of `path`: the deepest rule holding it wins (unlisted: read-only, the root filesystem). */
export function kindAt(policy: ConfinementPolicy, path: string): MountKind {
  let kind: MountKind = 'readOnly';
  for (const m of orderedMounts(policy)) if (within(path, m.path)) kind = m.kind;
  return kind;
}
