import { displayCommand, shellQuote, visible } from '../display.js';
import type { RoutingToolName } from '../routing/tools.js';
import type { RegistryToolName } from '../tools/registry.js';

/**
 * What the barrier, Restricted Mode, plan mode and the approval prompt make of each tool: one row
 * per built-in tool, keyed by the names the tools' own definitions carry, so a built-in tool
 * without a row does not compile. MCP and plugin tools (and names nobody knows) get theirs from
 * `policyOf`, from what their descriptor says.
 */

/** Every built-in tool by name (the routing tools included), taken from their definitions. */
export type BuiltinToolName = RegistryToolName | RoutingToolName;

/**
 * Plan mode (spec 10):
 * - `reads`: only reads (files, memory, the web); runs under the usual rules.
 * - `consults`: asks another agent, whose run is in plan mode too; runs under the usual rules.
 * - `command`: runs only when the barrier finds the command harmless (no risk at all).
 * - `changes`: writes, edits, hands over or changes routes: refused.
 */
export type PlanClass = 'reads' | 'consults' | 'command' | 'changes';

/** Where the approval prompt's sentence is said: the calling agent and the folder the call runs in (made visible). */
export interface SummaryPlace {
  agent: string;
  cwd: string;
}

export interface ToolPolicy {
  /**
   * At the barrier (spec 5.1): `free` tools only read, or are authorised by something else (a
   * route authorises send_to_agent, spec 6.2); `shell` tools are free only when harmless and
   * watched; `gated` ones always ask.
   */
  barrier: 'free' | 'shell' | 'gated';
  /**
   * In a workspace the person has not trusted (Restricted Mode, issue 12): `runs` for tools that
   * read, list, search or consult another agent; `refused` for anything that runs code or writes,
   * refused before the barrier is asked, even after an approval.
   */
  restricted: 'runs' | 'refused';
  /** Its results are outside content (spec 5.3): the tool marks them, and the run that reads them. */
  outsideContent: boolean;
  plan: PlanClass;
  /**
   * The approval prompt's sentence for a call (spec 5.2), every model-controlled part made
   * visible and inert; undefined when the arguments do not have the expected shape (the prompt
   * then shows the tool's name and its arguments as they are).
   */
  summary?: (args: Record<string, unknown>, place: SummaryPlace) => string | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const indent = (text: string): string => text.replace(/\n/g, '\n  ');

/** A typed record: a built-in tool missing here (or a name that is not one) does not compile. */
export const TOOL_POLICIES: Readonly<Record<BuiltinToolName, ToolPolicy>> = {
  read_file: { barrier: 'free', restricted: 'runs', outsideContent: false, plan: 'reads' },
  list_dir: { barrier: 'free', restricted: 'runs', outsideContent: false, plan: 'reads' },
  memory_search: { barrier: 'free', restricted: 'runs', outsideContent: false, plan: 'reads' },
  // A note into the agent's own memory, not the workspace: memory runs under the usual rules.
  remember: { barrier: 'free', restricted: 'refused', outsideContent: false, plan: 'reads' },
  web_search: { barrier: 'free', restricted: 'runs', outsideContent: true, plan: 'reads' },
  // Reads a skill's own text (a reading tool, confined to the skill's folder).
  load_skill: { barrier: 'free', restricted: 'runs', outsideContent: false, plan: 'reads' },
  send_to_agent: { barrier: 'free', restricted: 'runs', outsideContent: false, plan: 'consults' },
  bash: {
    barrier: 'shell', restricted: 'refused', outsideContent: false, plan: 'command',
    summary: (a, { cwd }) => (str(a.command) !== undefined ? `Run a shell command in ${cwd}:\n  ${indent(displayCommand(a.command as string))}` : undefined),
  },
  run_script: {
    barrier: 'shell', restricted: 'refused', outsideContent: false, plan: 'command',
    summary: (a, { cwd }) => {
      const argv = (a.argv ?? a.args ?? []) as unknown;
      if (str(a.program) === undefined || !Array.isArray(argv)) return undefined;
      return `Run a program in ${cwd}:\n  ${[a.program as string, ...argv.map(String)].map(shellQuote).join(' ')}`;
    },
  },
  write_file: {
    barrier: 'gated', restricted: 'refused', outsideContent: false, plan: 'changes',
    summary: (a, { cwd }) => {
      if (str(a.path) === undefined) return undefined;
      const size = str(a.content) !== undefined ? ` (${(a.content as string).length} characters)` : '';
      return `Write the file ${visible(a.path as string)}${size}, relative to ${cwd}`;
    },
  },
  edit_file: {
    barrier: 'gated', restricted: 'refused', outsideContent: false, plan: 'changes',
    summary: (a, { cwd }) => {
      if (str(a.path) === undefined || !Array.isArray(a.edits)) return undefined;
      const n = a.edits.length;
      return `Edit the file ${visible(a.path as string)} (${n} search/replace block${n === 1 ? '' : 's'}), relative to ${cwd}`;
    },
  },
  // Handing the conversation over is what "Start" does once the plan is agreed.
  switch_agent: {
    barrier: 'gated', restricted: 'runs', outsideContent: false, plan: 'changes',
    summary: (a) => (str(a.target) !== undefined ? `Hand the conversation over to ${visible(a.target as string)} from the next message` : undefined),
  },
  set_route: {
    barrier: 'gated', restricted: 'refused', outsideContent: false, plan: 'changes',
    summary: (a, { agent }) => {
      if (str(a.to) === undefined) return undefined;
      const verb = a.action === 'deny' ? 'Remove' : 'Allow';
      return `${verb} the route ${visible(str(a.from) ?? agent)} → ${visible(a.to as string)} (writes config.json)`;
    },
  },
};

/** MCP servers' tools (`mcp__<server>__<tool>`): outside code, always asked unless a person pre-approved them. */
export const MCP_TOOL_PREFIX = 'mcp__';

/** What a call's tool is known as: its name, and what its server says about it (an MCP tool's read-only hint). */
export interface ToolDescriptor {
  name: string;
  readOnlyHint?: boolean;
}

/** A tool's policy, with whether it is one Pepe knows (a built-in or an MCP server's tool). */
export type ResolvedPolicy = ToolPolicy & { known: boolean };

export function isBuiltinTool(name: string): name is BuiltinToolName {
  return Object.hasOwn(TOOL_POLICIES, name);
}

/**
 * The one function every tool's policy comes from. A built-in tool has its row. An MCP tool is
 * gated and refused in Restricted Mode; in plan mode it reaches the barrier only when its server
 * says it only reads (a hint, never a grant); its results are outside content. A plugin's tool or
 * a name nobody knows is treated as risky in every way: unknown means refused.
 */
export function policyOf(tool: string | ToolDescriptor): ResolvedPolicy {
  const { name, readOnlyHint = false } = typeof tool === 'string' ? { name: tool } : tool;
  if (name.startsWith(MCP_TOOL_PREFIX)) return { barrier: 'gated', restricted: 'refused', outsideContent: true, plan: readOnlyHint ? 'reads' : 'changes', known: true };
  if (isBuiltinTool(name)) return { ...TOOL_POLICIES[name], known: true };
  return { barrier: 'gated', restricted: 'refused', outsideContent: false, plan: 'changes', known: false };
}

/** The built-in tools whose row says so, in the table's order. */
export function builtinToolsWhere(test: (p: ToolPolicy) => boolean): BuiltinToolName[] {
  return (Object.keys(TOOL_POLICIES) as BuiltinToolName[]).filter((n) => test(TOOL_POLICIES[n]));
}
