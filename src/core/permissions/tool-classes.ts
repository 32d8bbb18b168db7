import { builtinToolsWhere, policyOf, type ToolDescriptor } from './tool-policy.js';

/**
 * Which tools stop at the barrier (spec 5.1), from the tools' policy table (tool-policy.ts). Free
 * tools only read, or are authorised by something else (a route authorises send_to_agent, spec
 * 6.2). Shell tools are free only when harmless and watched. Everything else — including plugin
 * tools and names the barrier has never seen — is gated: unknown means risky.
 */

export const FREE_TOOLS = builtinToolsWhere((p) => p.barrier === 'free');
export const SHELL_TOOLS = builtinToolsWhere((p) => p.barrier === 'shell');
export const ALWAYS_GATED_TOOLS = builtinToolsWhere((p) => p.barrier === 'gated');

/** Tools whose results are outside content (spec 5.3); the runtime marks the run when one returns. */
export const OUTSIDE_CONTENT_TOOLS: readonly string[] = builtinToolsWhere((p) => p.outsideContent);

export type ToolClass =
  | { kind: 'free' }
  | { kind: 'shell' }
  /** `known` is false for plugin tools and names the barrier does not know. */
  | { kind: 'gated'; known: boolean };

export function classifyTool(tool: string | ToolDescriptor): ToolClass {
  const p = policyOf(tool);
  return p.barrier === 'gated' ? { kind: 'gated', known: p.known } : { kind: p.barrier };
}
