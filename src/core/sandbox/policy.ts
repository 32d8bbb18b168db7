import { existsSync, lstatSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';

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

/**
 * Dotfiles and folders under $HOME that hold credentials, tokens, keys, cookies or command
 * histories: hidden. Every other dotfile stays visible but read-only (tools read their settings).
 */
export const SECRET_HOME_ENTRIES: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.oci',
  '.netrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '.git-credentials',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.password-store',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.m2/settings.xml',
  '.m2/settings-security.xml',
  '.gradle/gradle.properties',
  '.terraform.d/credentials.tfrc.json',
  '.huggingface',
  '.cache/huggingface/token',
  '.config/gh',
  '.config/hub',
  '.config/gcloud',
  '.config/doctl',
  '.config/op',
  '.config/pip',
  '.pip',
  '.config/git/credentials',
  '.config/rclone',
  '.config/Code',
  '.config/Code - Insiders',
  '.config/VSCodium',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.mozilla',
  '.thunderbird',
  '.local/share/keyrings',
  '.pki',
  '.bash_history',
  '.zsh_history',
  '.sh_history',
  '.histfile',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.lesshst',
  '.viminfo',
  '.local/share/fish/fish_history',
  // Shell start-up files often export keys; a command run with `bash -c` never reads them.
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.config/fish/fish_variables',
  // Other tools' tokens.
  '.config/github-copilot',
  '.claude',
  '.claude.json',
  '.codex',
  '.gemini',
  '.config/stripe',
  '.config/containers/auth.json',
  '.terraformrc',
  '.s3cfg',
  '.boto',
  '.config/configstore',
  '.pulumi',
  '.fly',
  '.config/ngrok',
  '.config/helm',
  '.minikube',
  '.local/share/atuin',
  '.vscode-server',
];

export interface SandboxPolicyInput {
  /** The writable root: the workspace (or the agent's home). */
  workspace: string;
  /** Where the command starts; inside the workspace. Defaults to the workspace. */
  cwd?: string;
  /** $PEPE_HOME: hidden (config with api_key_env names, approvals, plugins). */
  pepeHome?: string;
  /** The user's home folder, whose secret-bearing dotfiles are hidden and the rest read-only. */
  home?: string;
  network: boolean;
  /** Files the command needs to see even inside hidden places (the sandbox wrapper program). */
  visible?: string[];
  maxProcesses?: number;
}

/** The built-in sandbox's policy for one command (spec 3.5). Only existing paths are listed. */
export function sandboxPolicy(input: SandboxPolicyInput): ConfinementPolicy {
  const workspace = real(input.workspace);
  const writable = [workspace];
  const readOnly: string[] = [];
  const hidden: string[] = [];

  // Git runs what .git/config and .git/hooks say the next time the person commits on the host:
  // a command must not plant that. A missing hooks folder is hidden (an empty read-only folder).
  const git = join(workspace, '.git');
  if (isDir(git)) {
    for (const repo of [git, ...subdirs(join(git, 'modules'))]) {
      if (existsSync(join(repo, 'config'))) readOnly.push(join(repo, 'config'));
      if (existsSync(join(repo, 'hooks'))) readOnly.push(real(join(repo, 'hooks')));
      else hidden.push(join(repo, 'hooks'));
    }
    // `core.hooksPath = .husky` and the like: hooks kept in the working tree.
    const hooksPath = /^\s*hookspath\s*=\s*(.+?)\s*$/im.exec(readText(join(git, 'config')))?.[1]?.replace(/^"(.*)"$/, '$1');
    if (hooksPath && !hooksPath.startsWith('~')) {
      const dir = resolve(workspace, hooksPath);
      if (existsSync(dir)) readOnly.push(real(dir));
    }
  }

  if (input.home && isAbsolute(input.home) && existsSync(input.home)) {
    const home = real(input.home);
    for (const entry of SECRET_HOME_ENTRIES) {
      const p = join(home, entry);
      if (exists(p)) {
        hidden.push(p);
        // A link (~/.ssh → elsewhere) is hidden where it points too.
        const r = real(p);
        if (r !== p) hidden.push(r);
      }
    }
    // A workspace that contains the home folder would make every dotfile writable: keep them read-only.
    if (writable.some((w) => within(home, w))) {
      for (const name of safeReaddir(home)) {
        const p = join(home, name);
        if (name.startsWith('.') && !hidden.includes(p)) readOnly.push(p);
      }
    }
  }

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

  for (const v of input.visible ?? []) if (existsSync(v)) readOnly.push(real(v));

  const cwd = real(input.cwd ?? workspace);
  const protectedPaths = [...readOnly, ...hidden];
  return { cwd, writable: unique([...writable, ...pins(writable, protectedPaths)]), readOnly: unique(readOnly), hidden: unique(hidden), network: input.network, maxProcesses: input.maxProcesses ?? DEFAULT_MAX_PROCESSES };
}

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
  return all.sort((a, b) => depth(a.path) - depth(b.path) || rank[a.kind] - rank[b.kind] || a.path.localeCompare(b.path));
}

/** True when `path` is `root` or inside it. */
export function within(path: string, root: string): boolean {
  const p = resolve(path);
  const r = resolve(root);
  return p === r || p.startsWith(r.endsWith(sep) ? r : r + sep);
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

function subdirs(p: string): string[] {
  return safeReaddir(p)
    .map((n) => join(p, n))
    .filter(isDir);
}

function readText(p: string): string {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
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
