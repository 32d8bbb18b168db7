import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { addAgent, assertName } from '../config/edits.js';
import type { AgentConfig, PepeConfig } from '../config/schema.js';
import { UsageError } from '../errors.js';
import type { Interop } from '../interop/workspace-power.js';
import { agentFileText, type AgentListRow } from '../interop/report.js';
import type { PepePaths } from '../paths.js';
import { widenEntries } from '../permissions/grant-scope.js';
import type { PluginRegistry } from '../plugins/registry.js';
import { candidatesFor } from '../slots/availability.js';
import type { SlotName } from '../slots/names.js';
import { namesBuiltin } from '../slots/resolve.js';

/** What the agent commands need of the facade that owns them. */
export interface AgentCommandDeps {
  config(): PepeConfig;
  /** Agent files, other tools' MCP entries and hooks as they apply now. */
  workspaceItems(): Interop | null;
  registry: PluginRegistry;
  paths: PepePaths;
  slotName(slot: string): SlotName;
  /** A named edit of config.json under the store's lock, then a reload. */
  edit<T>(mutate: (raw: Record<string, unknown>, current: PepeConfig) => T): Promise<T>;
}

/** The facade's agent commands: add one, keep an "Always", list them with their sources, export one as a file. */
export class AgentCommands {
  constructor(private readonly deps: AgentCommandDeps) {}

  async agentAdd(name: string, agent: AgentConfig): Promise<void> {
    // A name is checked before anything is created: "../x" or "a/b" must not make a folder first.
    assertName('agent', name);
    for (const [slot, plugin] of Object.entries(agent.slots ?? {})) {
      const { eligible } = candidatesFor(this.deps.slotName(slot), await this.deps.registry.list());
      if (!namesBuiltin(plugin) && !eligible.some((p) => p.name === plugin)) {
        throw new UsageError(`--slots ${slot}:${plugin}: no installed plugin named "${plugin}" claims ${slot}${eligible.length ? ` (these do: ${eligible.map((p) => p.name).join(', ')})` : ''}`);
      }
    }
    await this.deps.edit((raw) => addAgent(raw, name, agent));
    mkdirSync(join(this.deps.paths.agents, name), { recursive: true });
  }

  /** Spec 5.2 "Always": the tool joins the agent's persisted `auto_approve`. */
  allowAlways(agent: string, tool: string): Promise<void> {
    return this.deps.edit((raw) => {
      const agents = raw.agents as Record<string, Record<string, unknown>> | undefined;
      const cfg = agents?.[agent];
      if (!cfg) {
        const file = this.deps.workspaceItems()?.agents.find((a) => a.name === agent && a.status === 'loaded');
        // An agent file is not rewritten (a workspace's least of all): "Always" lives in config.json only.
        if (file) throw new UsageError(`"Always" is kept only for agents in config.json; ${agent} comes from ${file.source}: add auto_approve to your own copy of it, or answer "Allow" for now`);
        throw new UsageError(`unknown agent "${agent}"`);
      }
      const current = cfg.auto_approve;
      if (current === '*') return;
      const list = Array.isArray(current) ? (current as string[]) : [];
      // A scoped entry widens the tool's existing one (bash:network, then bash:write → bash:network+write).
      cfg.auto_approve = widenEntries(list, tool);
    });
  }

  /** Every agent: config.json's, then the files' (those that do not load too, with why). */
  agentList(): AgentListRow[] {
    const agents = this.deps.config().agents ?? {};
    const sources = this.deps.workspaceItems()?.agents ?? Object.keys(agents).map((name) => ({ name, source: 'config.json', origin: 'config' as const, status: 'loaded' as const, description: null }));
    return sources.map((s) => {
      const a = s.status === 'loaded' ? agents[s.name] : undefined;
      return {
        name: s.name,
        model: a ? a.model ?? a.model_chain?.join(' → ') ?? null : null,
        project: a?.project ?? null,
        tools: a?.tools ?? null,
        canMessage: a?.can_message ?? [],
        source: s.source,
        status: s.status,
        description: s.description,
      };
    });
  }

  /** Problems of agent files, other tools' MCP entries and hooks (FILE:LINE where known). */
  interopProblems(): string[] {
    return this.deps.workspaceItems()?.problems ?? [];
  }

  /** One agent as a Markdown agent file (front matter and the system prompt as its body). */
  agentExport(name: string): string {
    const agent = this.deps.config().agents?.[name];
    if (!agent) throw new UsageError(`unknown agent "${name}"; see pepe agent list`);
    return agentFileText(name, agent, this.deps.workspaceItems()?.agents.find((a) => a.name === name && a.status === 'loaded')?.description);
  }
}
