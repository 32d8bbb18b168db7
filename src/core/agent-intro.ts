import type { PepeConfig } from './config/schema.js';

/**
 * What an empty chat says about its agent (issue 26): what it can do in one line (its tools, the
 * agents it may consult, its MCP servers) and three example prompts that its tools can answer.
 * Built from config.json only: nothing is started to say it.
 */
export interface AgentIntro {
  agent: string;
  /** "Tools: read_file, edit_file, bash · Consults: billing · MCP: docs". */
  summary: string;
  examples: string[];
}

/** Built-in tools in the order a person meets them; routing tools are said as "consults". */
const BUILTIN_TOOL_NAMES = ['read_file', 'list_dir', 'edit_file', 'write_file', 'bash', 'run_script', 'web_search', 'memory_search', 'remember', 'load_skill'];
export const ROUTING_TOOL_NAMES: ReadonlySet<string> = new Set(['send_to_agent', 'switch_agent', 'set_route']);

/** Example prompts by the tool that answers them; the first three the agent can use are offered. */
const EXAMPLES: readonly { needs: string; text: (consult?: string) => string }[] = [
  { needs: 'list_dir', text: () => 'What is in this folder? Give me a short overview.' },
  { needs: 'read_file', text: () => 'Read the README and tell me how to build this project.' },
  { needs: 'edit_file', text: () => 'Find a typo in the README and fix it.' },
  { needs: 'bash', text: () => 'Run the tests and tell me what fails.' },
  { needs: 'send_to_agent', text: (consult) => `Ask ${consult} what it can help with.` },
  { needs: 'web_search', text: () => 'Search the web for the latest release notes of TypeScript.' },
  { needs: 'remember', text: () => 'Remember that I prefer short answers.' },
];
const GENERIC = ['What can you help me with?', 'Explain the difference between a process and a thread, briefly.', 'Write a commit message for a change that fixes a typo.'];

export function agentIntro(config: PepeConfig, agent: string): AgentIntro | null {
  const a = config.agents?.[agent];
  if (!a) return null;
  const tools = a.tools ?? [...BUILTIN_TOOL_NAMES, 'send_to_agent'];
  const consults = a.can_message ?? [];
  const own = tools.filter((t) => !ROUTING_TOOL_NAMES.has(t));
  const mcp = (a.mcp ?? []).map((m) => {
    const tool = /^mcp__([^_]+(?:_[^_]+)*)__(.+)$/.exec(m);
    return tool ? `${tool[2]} (${tool[1]})` : m;
  });
  const parts = [
    own.length ? `Tools: ${own.join(', ')}` : 'No tools: it answers from the conversation',
    consults.length && tools.some((t) => ROUTING_TOOL_NAMES.has(t)) ? `Consults: ${consults.join(', ')}` : null,
    mcp.length ? `MCP: ${mcp.join(', ')}` : null,
  ].filter((p): p is string => p !== null);
  const usable = new Set(tools);
  const examples = EXAMPLES.filter((e) => usable.has(e.needs) && (e.needs !== 'send_to_agent' || consults.length > 0)).map((e) => e.text(consults[0]));
  for (const g of GENERIC) if (examples.length < 3) examples.push(g);
  return { agent, summary: parts.join(' · '), examples: examples.slice(0, 3) };
}
