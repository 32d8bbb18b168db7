import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { confinedCommand, detectConfinement, processLimitPrefix, sandboxPolicy, type ConfinementPolicy, type ConfinementStatus } from '../sandbox/index.js';
import type { Launcher } from './host-process.js';

export type { ConfinementPolicy, ConfinementStatus };

/**
 * What a plugin host process may see (spec 3.3, 8): an allow-listed environment, its own data
 * folder as the only writable place and working directory, and, when the OS confinement works,
 * a read-only filesystem with `$PEPE_HOME` hidden (except the plugin file itself, read-only, and
 * its data folder) and no network unless it occupies `web_search`.
 */

/** The only variables a plugin process inherits (plus what `secrets.expose_env` names). */
export const PLUGIN_ENV_ALLOW = ['PATH', 'HOME', 'LANG', 'TERM', 'USER', 'SHELL', 'TMPDIR'] as const;

export function pluginEnv(source: Record<string, string | undefined>, expose: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...PLUGIN_ENV_ALLOW, ...expose]) {
    const value = source[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** `$PEPE_HOME/plugin-data/<file stem>/`: named after the file, known before the plugin loads. */
export function pluginDataDir(home: string, file: string): string {
  return join(home, 'plugin-data', basename(file, extname(file)).replace(/[^A-Za-z0-9._-]/g, '_') || 'plugin');
}

/** The OS confinement as the plugin host uses it (provided by the sandbox area). */
export interface PluginConfiner {
  status(): Promise<ConfinementStatus>;
  command(policy: ConfinementPolicy, argv: string[]): { file: string; args: string[] };
}

/**
 * The sandbox's own policy with the plugin's data folder as the workspace: `$PEPE_HOME` and the
 * person's home folder hidden (but for the toolchains, read-only), host sockets unreachable,
 * everything else read-only, except the plugin file (and the packages beside it) kept readable.
 */
export function pluginPolicy(home: string, file: string, dataDir: string, network: boolean): ConfinementPolicy {
  const visible = [file];
  // Packages installed beside the plugins stay importable (docs: "resolvable from its own folder").
  const modules = join(dirname(file), 'node_modules');
  if (existsSync(modules)) visible.push(modules);
  return sandboxPolicy({ workspace: dataDir, pepeHome: home, home: homedir(), hostEnv: process.env, network, visible, maxProcesses: 64 });
}

/** The OS confinement (bubblewrap on Linux, Seatbelt on macOS), with the process limit applied. */
export const osConfiner: PluginConfiner = {
  status: detectConfinement,
  command(policy, argv) {
    const prefix = processLimitPrefix(policy);
    return confinedCommand(policy, prefix ? ['/bin/sh', '-c', `${prefix}exec "$@"`, 'sh', ...argv] : argv);
  },
};

/**
 * The launcher for one plugin: confined when the confiner says it works, otherwise the plain
 * command, with the reason kept for `status` (never silently: the registry reports it).
 */
export function confinedLauncher(confiner: PluginConfiner | undefined, policy: () => ConfinementPolicy, onStatus?: (s: ConfinementStatus) => void): Launcher {
  return async (argv) => {
    const status: ConfinementStatus = confiner ? await confiner.status() : { confined: false, reason: 'no confinement is available to the plugin host' };
    onStatus?.(status);
    if (!status.confined || !confiner) return { file: argv[0]!, args: argv.slice(1) };
    return confiner.command(policy(), argv);
  };
}
