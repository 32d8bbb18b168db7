/**
 * Restricted Mode (issue 12): in a workspace the person has not trusted, no tool that runs code or
 * writes runs at all — not even after an approval — because the workspace's files (and so
 * anything the model read there) may be an attacker's. Reading, listing, searching and consulting
 * another agent stay available; everything else, plugin and unknown tools included, is refused
 * before the barrier is asked. An allow-list, so a tool added later is refused until it is
 * judged harmless here.
 */
const ALLOWED_WHEN_RESTRICTED: ReadonlySet<string> = new Set(['read_file', 'list_dir', 'memory_search', 'web_search', 'send_to_agent', 'switch_agent', 'load_skill']);

/** Begins every Restricted Mode refusal, so a surface can recognise one and offer to trust the folder. */
export const RESTRICTED_PREFIX = 'Restricted Mode:';

/**
 * Null when `tool` may run; otherwise the refusal the model (and the person) is given. The tool
 * invoker calls it first, before resolving or asking: `trusted` is the workspace's trust.
 */
export function restrictedRefusal(tool: string, trusted: boolean): string | null {
  if (trusted || ALLOWED_WHEN_RESTRICTED.has(tool)) return null;
  return `${RESTRICTED_PREFIX} ${tool} was not run. This folder is not trusted, so Pepe does not run commands, scripts, plugins or anything that writes here. If you trust the folder's contents, trust the folder (in VS Code: Manage Workspace Trust) and ask again.`;
}

export function isRestrictedRefusal(text: string): boolean {
  return text.startsWith(RESTRICTED_PREFIX);
}
