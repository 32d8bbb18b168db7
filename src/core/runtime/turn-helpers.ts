import { isAbsolute, relative, resolve } from 'node:path';
import type { PepeConfig } from '../config/schema.js';

/** `permissions.prompt_timeout_seconds` as the barrier's option (absent: a prompt waits). */
export function promptTimeout(config: PepeConfig): { promptTimeoutMs?: number } {
  const seconds = config.permissions?.prompt_timeout_seconds;
  return seconds ? { promptTimeoutMs: Math.round(seconds * 1000) } : {};
}

/** Is `path` the directory `root` or inside it? */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Said when a hand-over's target no longer exists. */
export function switchNotice(target: string, current: string): string {
  return `${target} no longer exists; the conversation stays with ${current}`;
}
