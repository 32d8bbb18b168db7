import { policyOf } from './tool-policy.js';

/**
 * Restricted Mode (issue 12): in a workspace the person has not trusted, no tool that runs code or
 * writes runs at all — not even after an approval — because the workspace's files (and so
 * anything the model read there) may be an attacker's. Reading, listing, searching and consulting
 * another agent stay available; everything else, plugin and unknown tools included, is refused
 * before the barrier is asked. The `restricted` column of the tools' policy table (tool-policy.ts)
 * says which run: a built-in tool has to be given a row, and every other tool is refused.
 */

/** Begins every Restricted Mode refusal, so a surface can recognise one and offer to trust the folder. */
export const RESTRICTED_PREFIX = 'Restricted Mode:';

/**
 * Null when `tool` may run; otherwise the refusal the model (and the person) is given. The tool
 * invoker calls it first, before resolving or asking: `trusted` is the workspace's trust.
 */
export function restrictedRefusal(tool: string, trusted: boolean): string | null {
  if (trusted || policyOf(tool).restricted === 'runs') return null;
  return `${RESTRICTED_PREFIX} ${tool} was not run. This folder is not trusted, so Pepe does not run commands, scripts, plugins or anything that writes here. If you trust the folder's contents, trust the folder (in VS Code: Manage Workspace Trust) and ask again.`;
}

export function isRestrictedRefusal(text: string): boolean {
  return text.startsWith(RESTRICTED_PREFIX);
}
