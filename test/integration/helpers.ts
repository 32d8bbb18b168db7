/**
 * Shared by the integration suites (inside the extension host): the extension's API, its
 * PEPE_HOME, the CLI next to it, and condition-based waiting.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PepeExtensionApi } from '../../src/extension/api';
import type { PepeTestingApi } from '../../src/extension/activate';

export const EXTENSION_ID = 'pepe.pepe';

export type Api = PepeExtensionApi & { testing: PepeTestingApi };

export async function api(): Promise<Api> {
  const ext = vscode.extensions.getExtension<PepeExtensionApi & { testing?: PepeTestingApi }>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed`);
  const exports = await ext.activate();
  if (!exports.testing) throw new Error('the extension runs in production mode: no testing API');
  return exports as Api;
}

export function extensionPath(): string {
  return vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
}

export function pepeHome(): string {
  const home = process.env.PEPE_HOME;
  if (!home) throw new Error('PEPE_HOME is not set in the extension host');
  return home;
}

export function readConfig(): Record<string, any> {
  try {
    return JSON.parse(readFileSync(path.join(pepeHome(), 'config.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** Runs `node dist/cli.js …` with this run's PEPE_HOME, as a person would in a terminal. */
export function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(extensionPath(), 'dist', 'cli.js'), ...args], { env: { ...process.env, PEPE_HOME: pepeHome(), ELECTRON_RUN_AS_NODE: '1' }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0, stdout, stderr });
    });
  });
}

export async function waitUntil<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? ` (last error: ${last.message})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The occupant the Slots tree shows for each top-level slot. */
export async function slotsTree(a: Api): Promise<Record<string, string>> {
  const nodes = await a.testing.trees.slots.getChildren();
  const out: Record<string, string> = {};
  for (const n of nodes) {
    if (n.kind !== 'slot') continue;
    out[n.slot] = String(a.testing.trees.slots.getTreeItem(n).description);
  }
  return out;
}

export function fixture(...parts: string[]): string {
  return path.join(extensionPath(), 'test', 'vscode', 'fixtures', ...parts);
}
