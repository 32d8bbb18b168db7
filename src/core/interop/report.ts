import { stringify } from 'yaml';
import type { AgentConfig } from '../config/schema.js';
import type { DoctorFinding } from '../doctor-finding.js';
import type { AgentSource, Interop } from './workspace-power.js';

/** What `pepe agent list` and the Agents view show for one agent. */
export interface AgentListRow {
  name: string;
  model: string | null;
  project: string | null;
  tools: string[] | null;
  canMessage: string[];
  /** "config.json", "$PEPE_HOME/agents/x.md" or the workspace file. */
  source: string;
  status: AgentSource['status'];
  description: string | null;
}

export const AGENT_STATUS_WORDS: Record<AgentSource['status'], string> = {
  loaded: 'loaded',
  awaiting: 'awaiting acceptance',
  changed: 'changed since accepted: awaiting acceptance',
  invalid: 'has problems: not loaded',
  shadowed: 'not used: the name is taken',
};

/** Why an agent named in a file does not run, and what to do. */
export function agentNotLoaded(agent: AgentSource, interop: Interop): string {
  if (agent.status === 'awaiting' || agent.status === 'changed') {
    return `agent "${agent.name}" comes from ${agent.source}, which ${agent.status === 'changed' ? 'changed since it was accepted and ' : ''}awaits acceptance: review it, then run pepe trust accept ${agent.name}`;
  }
  if (agent.status === 'invalid') {
    const mine = interop.problems.filter((p) => p.includes(agent.source.replace(/^\$PEPE_HOME\//, '')) && !p.startsWith('warning:'));
    return `agent "${agent.name}" in ${agent.source} has problems and does not load:\n${mine.map((p) => `  ${p}`).join('\n')}`;
  }
  return `agent "${agent.name}" in ${agent.source} is not used: the name is taken (see pepe agent list)`;
}

export function interopFindings(interop: Interop | null): DoctorFinding[] {
  if (!interop) return [];
  const out: DoctorFinding[] = interop.problems.map((p) => (p.startsWith('warning: ') ? { level: 'warning', area: 'config', message: p.slice(9) } : { level: 'problem', area: 'config', message: p }));
  for (const it of interop.items) {
    if (it.status !== 'accepted') out.push({ level: 'warning', area: 'config', message: `${it.file} (${it.kind} ${it.name}) ${it.status === 'changed' ? 'changed since it was accepted and ' : ''}awaits acceptance: pepe trust accept ${it.name}` });
  }
  return out;
}

/** The front matter fields of an agent file, in this order; the system prompt is the body. */
const FIELDS = ['model', 'model_chain', 'tools', 'can_message', 'slots', 'mcp', 'project', 'auto_approve', 'trust_untrusted_content'] as const;

export function agentFileText(name: string, agent: AgentConfig, description?: string | null): string {
  const front: Record<string, unknown> = { name };
  if (description) front.description = description;
  for (const k of FIELDS) if (agent[k] !== undefined) front[k] = agent[k];
  const left = Object.keys(agent).filter((k) => !(FIELDS as readonly string[]).includes(k) && k !== 'system_prompt');
  const yaml = stringify(front).trimEnd();
  const note = left.length ? `# not carried into agent files: ${left.join(', ')}\n` : '';
  return `---\n${yaml}\n${note}---\n${agent.system_prompt ? `${agent.system_prompt.trimEnd()}\n` : ''}`;
}
