import { basename } from 'node:path';
import { checkAgentCores } from './cores/check-agents.js';
import { formatProblem } from './cores/problems.js';
import type { SectionProblem } from './config/sections.js';
import type { ConfigSnapshot } from './config/store.js';
import type { PluginInfo } from './plugins/registry.js';
import type { SlotService } from './slots/slot-service.js';
import { bareEntries } from './permissions/grant-scope.js';
import { crossesProjects } from './routing/route-graph.js';
import { agentModelProblem } from './models/usable.js';
import type { DoctorFinding } from './doctor-finding.js';

export type { DoctorFinding };

/** `pepe doctor` (spec 3.4, 9.1): the same availability check as `slot list`, across every scope. */
export async function runDoctor(snapshot: ConfigSnapshot, plugins: PluginInfo[], slots: SlotService, env: NodeJS.ProcessEnv, home?: string): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  const { config } = snapshot;
  const agents = Object.keys(config.agents ?? {});

  // Every configured agent's core: manifests, pipelines and module files (a broken or missing core
  // is a problem). The modules are not run here (`pepe init --check` loads them).
  if (home) {
    for (const c of checkAgentCores(config.agents ?? {}, home, { loadModules: false })) {
      for (const p of c.problems) findings.push({ level: 'problem', area: 'core', message: `agent ${c.agent}: core ${formatProblem(p, c.dir)}` });
    }
  }

  for (const aside of snapshot.setAside) {
    findings.push({ level: 'problem', area: 'config', message: setAsideLine(aside) });
  }
  for (const key of snapshot.unknown) {
    findings.push({ level: 'problem', area: 'config', message: `unknown key "${key}" in config.json (kept as is; remove it or check its spelling)` });
  }
  for (const p of plugins) {
    if (p.error) findings.push({ level: 'problem', area: 'plugin', message: `plugin file ${basename(p.file)}: ${p.error}` });
  }

  const scopes: { label: string; target: { agent?: string; project?: string } }[] = [{ label: 'install-wide', target: {} }];
  for (const project of Object.keys(config.projects ?? {})) scopes.push({ label: `project ${project}`, target: { project } });
  for (const agent of agents) scopes.push({ label: `agent ${agent}`, target: { agent } });
  const reported = new Set<string>();
  for (const scope of scopes) {
    for (const s of await slots.status(scope.target)) {
      if (s.slot === 'sandbox' && s.status === 'ok' && s.occupant === 'builtin' && s.uses?.includes('confined by') && !reported.has('sandbox-view')) {
        // What a command can see (spec 8): said once.
        findings.push({ level: 'info', area: 'slot', message: `sandbox: ${s.uses}` });
        reported.add('sandbox-view');
      }
      if (s.status === 'unconfined') {
        // The built-in sandbox without OS confinement: once, whatever the scope (spec 3.5).
        if (!reported.has('sandbox-unconfined')) findings.push({ level: 'warning', area: 'slot', message: `sandbox: unconfined, so every command is asked first: ${s.reason}` });
        reported.add('sandbox-unconfined');
        continue;
      }
      if (s.status !== 'default-instead') continue;
      // An install-wide problem shows once, not again for every agent that inherits it.
      const key = `${s.slot}\u0000${s.configured}\u0000${s.scope}`;
      if (s.scope !== 'agent' && reported.has(key)) continue;
      reported.add(key);
      findings.push({ level: 'problem', area: 'slot', message: `${s.slot} (${scope.label}, set at ${s.scope} level): using the default instead: ${s.reason}` });
    }
  }

  for (const [from, agent] of Object.entries(config.agents ?? {})) {
    for (const to of agent.can_message ?? []) {
      if (!agents.includes(to)) findings.push({ level: 'problem', area: 'route', message: `route ${from} → ${to} names an unknown agent "${to}"` });
      else if (crossesProjects(config, from, to)) {
        const where = (a: string) => (config.agents?.[a]?.project ? `project ${config.agents[a].project}` : 'no project');
        findings.push({ level: 'warning', area: 'route', message: `route ${from} → ${to} crosses from ${where(from)} to ${where(to)}, so it is not used; open it with projects.<project>.can_message_projects or remove it` });
      }
    }
    for (const bare of bareEntries(agent.auto_approve)) findings.push({ level: 'warning', area: 'config', message: `agent ${from}: auto_approve entry "${bare}" approves every call of ${bare}, whatever it does; scope it to the risks you accept (e.g. "${bare}:network")` });
    if (agent.can_message?.length && agent.tools && !agent.tools.includes('send_to_agent')) {
      findings.push({ level: 'warning', area: 'route', message: `agent ${from} has routes but not the send_to_agent tool, so it cannot use them` });
    }
    const unusable = agentModelProblem(config, from, env);
    if (unusable) findings.push({ level: 'warning', area: 'model', message: `agent ${from} cannot answer: ${unusable}` });
    for (const id of agent.model_chain ?? (agent.model ? [agent.model] : [])) {
      if (!knownModel(id, config.models ?? {})) findings.push({ level: 'problem', area: 'model', message: `agent ${from} uses unknown model "${id}" (add it under "models", or use "mock")` });
    }
  }
  for (const id of config.default_model_chain ?? []) {
    if (!knownModel(id, config.models ?? {})) findings.push({ level: 'problem', area: 'model', message: `default_model_chain names unknown model "${id}"` });
  }
  for (const [id, model] of Object.entries(config.models ?? {})) {
    if (model.api_key_env && !env[model.api_key_env]) {
      findings.push({ level: 'warning', area: 'model', message: `model ${id}: environment variable ${model.api_key_env} is not set` });
    }
  }
  return findings;
}

/** One line: the section, that it takes its defaults, and what to fix (the file is never rewritten). */
export function setAsideLine(aside: SectionProblem): string {
  return `config.json: section "${aside.section}" is set aside and takes its defaults until fixed: ${aside.problems.join('; ')} (Pepe never rewrites the file)`;
}

function knownModel(id: string, models: Record<string, unknown>): boolean {
  return id in models || id === 'mock' || id.startsWith('mock:') || id.startsWith('vscode:');
}
