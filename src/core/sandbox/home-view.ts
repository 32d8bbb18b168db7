import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/**
 * What a confined command sees of the person's home folder (spec 8, "Decision (turn 3)"): nothing,
 * except these entries, read-only and only where they exist. Each is a toolchain or its package
 * cache, which commands need to build and test, and none holds a credential:
 * - Node: `.nvm`, `.volta`, `.fnm` and `.local/share/fnm`, `.bun`, `.deno`, pnpm's
 *   `.local/share/pnpm`, npm's package cache `.npm/_cacache` and `npx` packages `.npm/_npx`
 *   (not `.npmrc`, which holds registry tokens);
 * - Rust: `.rustup`, `.cargo/bin`, `.cargo/registry`, `.cargo/git` (not `.cargo/credentials*`
 *   nor `.cargo/config.toml`, which can hold registry tokens);
 * - Python: `.pyenv`, `.local/lib` (user site-packages), uv's `.local/share/uv`;
 * - Go: `go/bin`, `go/pkg/mod`; Java: `.sdkman/candidates`, `.jdks`, `.m2/repository`,
 *   `.gradle/caches`, `.gradle/wrapper` (not `settings.xml` nor `gradle.properties`);
 * - Ruby: `.rbenv`; .NET: `.dotnet`, `.nuget/packages`; several: `.asdf`, `.local/share/mise`;
 * - programs the person installed for themself: `.local/bin`;
 * - git's own settings: `.gitconfig`, `.config/git/config`, `.config/git/ignore`,
 *   `.config/git/attributes` (commits made inside need the author's name; not
 *   `.config/git/credentials`). A token written into `.gitconfig` itself (an `url.…insteadOf`
 *   with a password) would be readable: the docs say so.
 * Anything else the person wants seen is added with `sandbox.readable` / `sandbox.writable`.
 */
export const TOOLCHAIN_HOME_ENTRIES: readonly string[] = [
  '.nvm',
  '.volta',
  '.fnm',
  '.local/share/fnm',
  '.bun',
  '.deno',
  '.local/share/pnpm',
  '.npm/_cacache',
  '.npm/_npx',
  '.rustup',
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  '.pyenv',
  '.local/lib',
  '.local/share/uv',
  'go/bin',
  'go/pkg/mod',
  '.sdkman/candidates',
  '.jdks',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
  '.rbenv',
  '.dotnet',
  '.nuget/packages',
  '.asdf',
  '.local/share/mise',
  '.local/bin',
  '.gitconfig',
  '.config/git/config',
  '.config/git/ignore',
  '.config/git/attributes',
];

/**
 * Host variables that name where tools keep configuration, credentials or agent sockets, possibly
 * outside the home folder: what they name is hidden too (a second layer; the home folder itself
 * is hidden whole). `KUBECONFIG` may list several files.
 */
export const CREDENTIAL_PATH_VARIABLES: readonly string[] = [
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'KUBECONFIG',
  'GNUPGHOME',
  'SSH_AUTH_SOCK',
  'GPG_AGENT_INFO',
  'DOCKER_CONFIG',
  'DOCKER_CERT_PATH',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'CLOUDSDK_CONFIG',
  'AZURE_CONFIG_DIR',
  'GH_CONFIG_DIR',
  'NPM_CONFIG_USERCONFIG',
  'PASSWORD_STORE_DIR',
  'VAULT_CONFIG_PATH',
  'NETRC',
];

/** Absolute places the variables above name in `env` (never `/` itself). */
export function credentialPaths(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const name of CREDENTIAL_PATH_VARIABLES) {
    const value = env[name];
    if (!value) continue;
    for (const part of name === 'KUBECONFIG' ? value.split(':') : name === 'GPG_AGENT_INFO' ? [value.split(':')[0] ?? ''] : [value]) {
      if (isAbsolute(part) && part.replace(/\/+$/, '') !== '') out.push(part);
    }
  }
  return out;
}

/** `~` and `~/x` expanded against `home`; anything else as written. */
export function expandHome(p: string, home: string | undefined): string {
  if (!home) return p;
  if (p === '~') return home;
  if (p.startsWith('~/')) return join(home, p.slice(2));
  return p;
}

/**
 * Every unix socket bound by a path on this machine (Linux `/proc/net/unix`): a read-only mount
 * does not stop a connection to a socket, so each one a command could reach is covered.
 * Abstract sockets (no path) live in the network namespace, which a command without the
 * network does not share. Elsewhere: none known (macOS refuses local sockets in the profile).
 */
export function hostSockets(procNetUnix = '/proc/net/unix'): string[] {
  let text: string;
  try {
    text = readFileSync(procNetUnix, 'utf8');
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path (the path may hold spaces).
    const m = /^\s*[0-9a-f]+:\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\d+\s(\/.*)$/i.exec(line);
    if (m) out.add(m[1]!);
  }
  return [...out];
}

/**
 * What a confined command can see, in a line (doctor, slot list, the Slots view): the home
 * folder hidden but for the toolchains, what the person added, where it may write.
 */
export function sandboxViewSummary(places: { readable?: string[]; writable?: string[] } = {}): string {
  const readable = places.readable?.length ? `, and ${places.readable.join(', ')}` : '';
  const writable = ['the workspace', ...(places.writable ?? [])].join(', ');
  return `home hidden except toolchains (~/.nvm, ~/.cargo/bin, ~/.rustup, ~/.pyenv, ~/.local/bin, …) and ~/.gitconfig, read-only${readable}; writable: ${writable}; host sockets unreachable`;
}
