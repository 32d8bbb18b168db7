import type { Checkpoints } from './checkpoints/checkpoints.js';
import type { TurnAttachment } from './context-attachments.js';
import { addModel, addRoute, editAgent, linkSchema, removeAgent, removeRoute, type AgentEdit, type SlotTarget } from './config/edits.js';
import { canonicalAgent, routeGraph, type RouteGraph } from './routing/route-graph.js';
import type { AgentConfig, ModelConfig, PepeConfig } from './config/schema.js';
import type { SectionProblem } from './config/sections.js';
import type { DoctorFinding } from './doctor.js';
import { UsageError } from './errors.js';
import type { ToolOutcome } from './tools/tool.js';
import type { RunTurnOptions, TurnResult } from './events.js';
import { switchNotice } from './runtime/turn-helpers.js';
import { conversationFigures, type ConversationFigures } from './runtime/conversation-figures.js';
import type { MemoryReindexResult, MemoryStatus } from './slots/memory-admin.js';
import type { ResolveTarget } from './slots/resolve.js';
import type { Interop } from './interop/workspace-power.js';
import { agentNotLoaded, interopFindings, type AgentListRow } from './interop/report.js';
import { runWithHooks } from './facade/hooked-turn.js';
import { approveNow } from './facade/approve-now.js';

import type { ConfigSnapshot } from './config/store.js';
import type { InProcessPlugin, PluginInfo } from './plugins/registry.js';
import type { ApprovedCall, DeniedCall, PendingApproval } from './permissions/pending.js';
import type { SlotOverview, SlotStatus } from './slots/slot-service.js';
import type { LoadedSession, SessionInfo, SessionOrigin } from './runtime/session-store.js';
import type { ProjectUsage, UsageRecord } from './runtime/usage.js';
import type { PulseOutcome } from './runtime/heartbeat.js';
import { closeKeptFiles } from './jsonl.js';
import type { LogEntry } from './log.js';
import type { McpCheck, McpServerConfig, McpServerRow, McpServerStatus, McpToolInfo, McpToolRow } from './mcp/index.js';
import type { HostToolSource } from './mcp/host-tools.js';
import type { GrantEntry } from './grant-controls.js';
import type { WorkspaceItem } from './interop/workspace-power.js';
import type { Expansion, PromptCatalog } from './interop/prompts.js';
import type { CreatePepeOptions } from './facade/create-options.js';
import type { SlotTestInput, SlotTestResult } from './facade/slot-commands.js';
import { PepeWiring } from './facade/wiring.js';

/**
 * The facade both hosts use (spec: one core, two surfaces). The CLI and the extension build one
 * of these and render what it returns; neither computes slot state or refusals on its own. A host
 * calls its methods and reads its data (config, paths, env, workspace); the parts behind it are
 * protected (facade/wiring.ts builds them).
 */
export class Pepe extends PepeWiring {
  /** The extension ties this to VS Code's Workspace Trust. */
  setWorkspaceTrust(trusted: boolean): void {
    this.workspaceTrusted = trusted;
  }

  /** Whether workspace-supplied files may load now (not in Restricted Mode, not with --untrusted). */
  get workspaceFilesAllowed(): boolean {
    return this.workspaceTrusted && !this.untrusted;
  }

  /**
   * The person's "I have read it; trust this conversation again" (spec 5.3): clears the outside
   * content a session holds, so pre-approvals apply again from its next turn. Only surfaces call
   * this, on an explicit action of the person; no tool reaches it.
   */
  trustSession(agent: string, sessionId: string): { agent: string; sessionId: string; wasTainted: boolean } {
    return { agent, sessionId, wasTainted: this.sessions.trust(agent, sessionId) };
  }

  /** Agent files, other tools' MCP entries and hooks as they apply now. */
  workspaceItems(): Interop | null {
    return this.layered.items();
  }

  /** `${input:…}` secrets of MCP entries, by variable (the editor keeps them in its secret storage). */
  setMcpInputs(values: Record<string, string>): void {
    Object.assign(this.env, values);
  }

  /** One turn of one agent (spec 4.1). */
  run(opts: RunTurnOptions): Promise<TurnResult> {
    if (!this.config.agents?.[opts.agent]) {
      const file = this.workspaceItems()?.agents.find((a) => a.name === opts.agent);
      if (file) return Promise.reject(new UsageError(agentNotLoaded(file, this.workspaceItems()!)));
    }
    if (!this.hooks.has('UserPromptSubmit') && !this.hooks.has('SessionStart') && !this.hooks.has('Stop')) return this.runtime().then((r) => r.runTurn(opts));
    return runWithHooks(this.hooks, (o) => this.runtime().then((r) => r.runTurn(o)), opts);
  }


  /** config.json with the agents and MCP servers of files that apply (config.json wins a name). */
  get config(): PepeConfig {
    return this.layered.config;
  }

  get configSnapshot(): ConfigSnapshot {
    return this.layered.current;
  }

  /**
   * Sections of config.json set aside because they are invalid (each takes its defaults; the
   * rest applies): for a host to show with their fixes. Empty when the file is clean.
   */
  configSetAside(): SectionProblem[] {
    return this.layered.current.setAside;
  }

  /** Re-reads config.json; throws ConfigError (and keeps the previous snapshot) when it is broken. */
  reload(): Promise<ConfigSnapshot> {
    return this.layered.reload();
  }

  // ---- named edits of config.json (config/edits.ts), each under the store's lock, then a reload ----

  /** Changes an agent's model chain, tools, system prompt or core (an undefined field is left alone). */
  agentEdit(agent: string, edit: AgentEdit): Promise<void> {
    return this.edit((raw) => editAgent(raw, agent, edit));
  }

  /** Adds a model (or, without one, adopts `id`) and makes it the default chain when there is none; true when it did. */
  modelAdd(id: string, model?: ModelConfig): Promise<boolean> {
    return this.edit((raw) => addModel(raw, id, model));
  }

  /** Names a JSON Schema in config.json's `$schema` unless one is there; true when added. */
  configLinkSchema(ref: string): Promise<boolean> {
    return this.edit((raw) => linkSchema(raw, ref));
  }

  /** Writes an empty, valid config.json when there is none (and leaves an existing one as it is). */
  configCreate(): Promise<void> {
    return this.edit(() => undefined);
  }

  // ---- slots ----

  slotList(target: ResolveTarget = {}): Promise<SlotStatus[]> {
    return this.slotCommands.slotList(target);
  }

  /** Every slot with its project and agent overrides, each resolved for its scope (one query for a host's tree). */
  slotOverview(): Promise<SlotOverview[]> {
    return this.slotCommands.slotOverview();
  }

  slotSet(slot: string, plugin: string, target: SlotTarget = {}): Promise<void> {
    return this.slotCommands.slotSet(slot, plugin, target);
  }

  slotClear(slot: string, target: SlotTarget = {}): Promise<string | null> {
    return this.slotCommands.slotClear(slot, target);
  }

  /** Calls a slot exactly as the runtime will (resolution + guard) and reports who answered. */
  slotTest(slot: string, input: SlotTestInput = {}): Promise<SlotTestResult> {
    return this.slotCommands.slotTest(slot, input);
  }

  /** Tier per project for model_select / heartbeat occupants (spec 4.6). */
  usageTiers(): Record<string, string> {
    return this.usage.tiers(this.config);
  }

  /** What a conversation costs so far: tokens, cost, context against the window, budget, project (issue 25). */
  conversationFigures(agent: string, sessionId: string, turnIds?: readonly string[]): ConversationFigures {
    const compacted = this.sessions.exists(agent, sessionId) && this.sessions.load(agent, sessionId).compacted;
    return conversationFigures({ config: this.config, usage: this.usage, agent, sessionId, compacted, ...(turnIds ? { turnIds } : {}) });
  }

  // ---- plugins ----

  pluginList(): Promise<PluginInfo[]> {
    return this.registry.list();
  }

  pluginInstall(path: string): Promise<PluginInfo> {
    return import('./facade/on-demand.js').then(({ installPlugin }) => installPlugin(this.registry, path));
  }

  pluginRemove(name: string): Promise<PluginInfo> {
    return import('./facade/on-demand.js').then(({ removePlugin }) => removePlugin(this.registry, name));
  }

  /** Spec 3.4: another VS Code extension's occupant; it shows up like an installed plugin. */
  registerSlotOccupant(plugin: InProcessPlugin): () => void {
    return this.registry.registerInProcess(plugin);
  }

  // ---- agents ----

  agentAdd(name: string, agent: AgentConfig): Promise<void> {
    return this.agentCommands.agentAdd(name, agent);
  }

  /** Spec 5.2 "Always": the tool joins the agent's persisted `auto_approve`. */
  allowAlways(agent: string, tool: string): Promise<void> {
    return this.agentCommands.allowAlways(agent, tool);
  }

  /** Spec 6.1: allow `from → to` (directed). Returns false when the route already existed. */
  routeAdd(from: string, to: string): Promise<boolean> {
    return this.edit((raw) => addRoute(raw, from, to));
  }

  /** Returns false when there was no such route. */
  routeRemove(from: string, to: string): Promise<boolean> {
    return this.edit((raw) => removeRoute(raw, from, to));
  }

  /**
   * Where a conversation goes after a turn that asked to hand it over (spec 6.3), checked against
   * the configuration now (reload first): the canonical name, or null with a notice when the
   * target was removed meanwhile, and the conversation stays where it was.
   */
  switchTarget(result: Pick<TurnResult, 'agent' | 'switchTo'>): { agent: string | null; notice?: string } {
    if (!result.switchTo) return { agent: null };
    const target = canonicalAgent(this.config, result.switchTo);
    return target ? { agent: target } : { agent: null, notice: switchNotice(result.switchTo, result.agent) };
  }

  routeGraph(): RouteGraph {
    return routeGraph(this.config);
  }

  agentRemove(name: string): Promise<{ routesRemoved: string[] }> {
    return this.edit((raw) => removeAgent(raw, name));
  }

  /** Every agent: config.json's, then the files' (those that do not load too, with why). */
  agentList(): AgentListRow[] {
    return this.agentCommands.agentList();
  }

  /** Problems of agent files, other tools' MCP entries and hooks (FILE:LINE where known). */
  interopProblems(): string[] {
    return this.agentCommands.interopProblems();
  }

  /** One agent as a Markdown agent file (front matter and the system prompt as its body). */
  agentExport(name: string): string {
    return this.agentCommands.agentExport(name);
  }

  // ---- memory ----

  /** Who answers each agent's memory searches (or one agent's), what it can do, its index. */
  memoryStatus(agent?: string): Promise<MemoryStatus[]> {
    return this.slotCommands.memoryStatus(agent);
  }

  /** Rebuilds each agent's memory index (or one agent's) through its occupant. */
  memoryReindex(agent?: string): Promise<MemoryReindexResult[]> {
    return this.slotCommands.memoryReindex(agent);
  }

  // ---- approvals ----

  /**
   * Approves a parked call and runs it now (spec 5.4; facade/approve-now.ts): refused, and left
   * pending, when its agent or session no longer exists.
   */
  approveNow(id: string, opts: { always?: boolean } = {}): Promise<ToolOutcome & { ran: boolean; call: ApprovedCall }> {
    return approveNow({ reload: () => this.reload(), config: () => this.config, pending: this.pending, sessions: this.sessions, runtime: () => this.runtime() }, id, opts);
  }

  approvalList(opts: { includeExpired?: boolean; includeResolved?: boolean; agent?: string } = {}): Promise<PendingApproval[]> { return this.pending.list(opts); }
  approvalDeny(idOrPrefix: string, opts: { reason?: string } = {}): Promise<DeniedCall> { return this.pending.deny(idOrPrefix, opts); }

  // ---- sessions: the conversation history both hosts list, open, rename and delete ----

  sessionList(agent?: string, filter: { origins?: readonly SessionOrigin[] } = {}): SessionInfo[] { return this.sessions.list(agent, filter); }
  sessionLoad(agent: string, id: string, opts: { keep?: boolean } = {}): LoadedSession { return this.sessions.load(agent, id, opts); }
  sessionExists(agent: string, id: string): boolean { return this.sessions.exists(agent, id); }
  sessionRename(agent: string, id: string, title: string): void { this.sessions.rename(agent, id, title); }
  sessionDelete(agent: string, id: string): void { this.sessions.delete(agent, id); }

  // ---- usage: the records of model calls, and spend per project against its cap ----

  usageRecords(): UsageRecord[] { return this.usage.all(); }
  onUsageRecord(listener: (r: UsageRecord) => void): () => void { return this.usage.onRecord(listener); }
  usageSpend(project: string | null): { spendUsd: number; calls: number } { return this.usage.spend(project); }
  projectUsage(project: string): ProjectUsage { return this.usage.projectUsage(this.config, project); }

  // ---- MCP servers (mcp/manager.ts): config.json's entries, their grants and their connections ----

  mcpAdd(name: string, server: unknown, options: { replace?: boolean; agents?: readonly string[] } = {}): Promise<{ server: McpServerConfig; warnings: string[]; unsetVariables: string[] }> { return this.mcp.add(name, server, options); }
  mcpRemove(name: string): Promise<string[]> { return this.mcp.remove(name); }
  mcpGrant(agent: string, entry: string): Promise<boolean> { return this.mcp.grant(agent, entry); }
  mcpDescribe(): McpServerRow[] { return this.mcp.describe(); }
  mcpStatus(): McpServerStatus[] { return this.mcp.status(); }
  mcpRestriction(): string | null { return this.mcp.restriction(); }
  mcpCheck(name: string): Promise<McpCheck> { return this.mcp.check(name); }
  mcpToolRows(name: string): Promise<{ check: McpCheck; tools: McpToolRow[] }> { return this.mcp.toolRows(name); }
  mcpRestart(name: string): Promise<McpToolInfo[]> { return this.mcp.restart(name); }
  mcpStop(name: string): Promise<void> { return this.mcp.stop(name); }
  /** The editor's language-model tools, offered to agents as the `vscode` entry (null: none). */
  setMcpHostTools(source: HostToolSource | null): void { this.mcp.setHostTools(source); }
  mcpHostToolNames(): string[] { return this.mcp.hostToolNames(); }

  // ---- grants (grant-controls.ts), workspace trust (interop/trust-actions.ts), prompt files ----

  grantList(filter: { agent?: string } = {}): Promise<GrantEntry[]> { return this.grants.list(filter); }
  grantRevoke(id: string): Promise<GrantEntry> { return this.grants.revoke(id); }
  grantRevokeScope(agent: string, scope?: string): Promise<GrantEntry[]> { return this.grants.revokeScope(agent, scope); }
  grantClear(agent?: string): Promise<GrantEntry[]> { return this.grants.clear(agent); }
  trustList(): { workspace: string | null; items: WorkspaceItem[] } { return this.workspaceTrust.list(); }
  trustAccept(target: string | { all: true }): Promise<WorkspaceItem[]> { return this.workspaceTrust.accept(target); }
  trustRevoke(target: string): Promise<string[]> { return this.workspaceTrust.revoke(target); }
  promptCatalog(): Promise<PromptCatalog> { return this.interop.prompts(); }
  /** A `/name …` line with its prompt file's text in place (the text as it is otherwise). */
  promptExpand(text: string): Promise<Expansion> { return this.interop.expand(text); }

  // ---- the heartbeat and the log's live lines ----

  heartbeatRunDue(now: Date = new Date()): Promise<PulseOutcome[]> { return this.heartbeat.runDue(now); }
  onLogEntry(listener: (entry: LogEntry) => void): () => void { return this.log.onEntry(listener); }

  // ---- health ----

  async doctor(): Promise<DoctorFinding[]> {
    const { runDoctor, mcpFindings } = await import('./facade/on-demand.js');
    return [...(await runDoctor(this.layered.current, await this.registry.list(), this.slots, this.env, this.paths.home)), ...(await mcpFindings(this.mcp)), ...(await this.interop.findings()), ...interopFindings(this.workspaceItems())];
  }

  /** The workspace's checkpoints (a shadow repository outside the project): for hosts' restore and compare. */
  checkpoints(): Promise<Checkpoints> {
    return import('./facade/on-demand.js').then(({ Checkpoints }) => Checkpoints.open(this.paths.home, this.workspace));
  }

  /** A workspace file as attached context (`@file`): read through the file tools' checks and caps. */
  attachFile(path: string): Promise<TurnAttachment> {
    return import('./facade/on-demand.js').then(({ fileAttachment }) => fileAttachment(path, { workspace: this.workspace, paths: this.paths }));
  }

  dispose(): void {
    this.heartbeat.stop();
    this.registry.dispose();
    this.disposeRuntime();
    this.liveGrants.dispose();
    this.builtins.sandbox.dispose();
    // The transcripts and records appended to lately are kept open a moment (jsonl.ts): let go of them.
    closeKeptFiles();
  }
}

export async function createPepe(options: CreatePepeOptions = {}): Promise<Pepe> {
  const pepe = new Pepe(options);
  await pepe.reload();
  return pepe;
}
