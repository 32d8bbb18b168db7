/**
 * Which tools stop at the barrier (spec 5.1). Free tools only read, or are authorised by
 * something else (a route authorises send_to_agent, spec 6.2). Shell tools are free only when
 * harmless and watched. Everything else — including plugin tools and names the barrier has never
 * seen — is gated: unknown means risky.
 */

export const FREE_TOOLS = ['read_file', 'list_dir', 'memory_search', 'remember', 'web_search', 'send_to_agent', 'load_skill'] as const;
export const SHELL_TOOLS = ['bash', 'run_script'] as const;
export const ALWAYS_GATED_TOOLS = ['write_file', 'edit_file', 'switch_agent', 'set_route'] as const;

/** Tools whose results are outside content (spec 5.3); the runtime marks the run when one returns. */
export const OUTSIDE_CONTENT_TOOLS: readonly string[] = ['web_search'];

export type ToolClass =
  | { kind: 'free' }
  | { kind: 'shell' }
  /** `known` is false for plugin tools and names the barrier does not know. */
  | { kind: 'gated'; known: boolean };

const has = (list: readonly string[], name: string) => list.includes(name);

/** MCP servers' tools (`mcp__<server>__<tool>`): outside code, always asked unless a person pre-approved them. */
export const MCP_TOOL_PREFIX = 'mcp__';

export function classifyTool(name: string): ToolClass {
  if (name.startsWith(MCP_TOOL_PREFIX)) return { kind: 'gated', known: true };
  if (has(FREE_TOOLS, name)) return { kind: 'free' };
  if (has(SHELL_TOOLS, name)) return { kind: 'shell' };
  return { kind: 'gated', known: has(ALWAYS_GATED_TOOLS, name) };
}
