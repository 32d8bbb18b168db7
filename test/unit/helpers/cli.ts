import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa, execaSync } from 'execa';

export const ROOT = join(import.meta.dirname, '../../..');
export const CLI = join(ROOT, 'dist/cli.js');

/** The CLI tests run the real bundle, as a user would; build it once if it is missing. */
export function ensureBuilt(): void {
  if (!existsSync(CLI)) execaSync('node', ['esbuild.mjs'], { cwd: ROOT });
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs `pepe` with PEPE_HOME (also the working directory) set to `home`. */
/** Runs the built CLI with `home` as PEPE_HOME; the working directory (the workspace) is `cwd`, else the home. */
export async function pepeCli(home: string, args: string[], env: Record<string, string> = {}, cwd: string = home): Promise<CliResult> {
  const r = await execa('node', [CLI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home, ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
}
