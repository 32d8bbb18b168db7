import { Checkpoints } from './checkpoints/checkpoints.js';
import { fileAttachment, type TurnAttachment } from './context-attachments.js';
import { join } from 'node:path';
import { Builtins } from './slots/builtin/index.js';
import { addModel, addRoute, editAgent, linkSchema, removeAgent, removeRoute, type AgentEdit, type SlotTarget } from './config/edits.js';
import { canonicalAgent, routeGraph, type RouteGraph } from './routing/route-graph.js';
import type { AgentConfig, ModelConfig, PepeConfig } from './config/schema.js';
import { ConfigStore, type ConfigSnapshot } from './config/store.js';
import type { SectionProblem } from './config/sections.js';
import { runDoctor, type DoctorFinding } from './doctor.js';
import { UsageError } from './errors.js';
import { EventLog } from './log.js';
import { pepePaths, resolveHome, type PepePaths } from './paths.js';
import { installPlugin, removePlugin } from './plugins/install.js';
import { PluginRegistry, type InProcessPlugin, type PluginInfo } from './plugins/registry.js';
import type { CreateProviderOptions } from './models/factory.js';
import { PendingApprovals, type ApprovedCall } from './permissions/index.js';
import type { ToolOutcome } from './tools/tool.js';
import type { RunTurnOptions, TurnResult } from './events.js';
import { AgentRuntime } from './runtime/agent-runtime.js';
import { GrantControls } from './grant-controls.js';
import { LiveGrants } from './permissions/live-grants.js';
import { SavedOnDisk } from './permissions/saved-on-disk.js';
import { switchNotice } from './runtime/turn-helpers.js';
import { Heartbeat } from './runtime/heartbeat.js';
import { SessionStore } from './runtime/session-store.js';
import { summariseWithModel } from './runtime/compaction.js';
import { UsageLedger } from './runtime/usage.js';
import { conversationFigures, type ConversationFigures } from './runtime/conversation-figures.js';
import { scrubEnv, secretValues } from './secrets/scrub.js';
import type { MemoryReindexResult, MemoryStatus } from './slots/memory-admin.js';
import { mcpFindings } from './mcp/doctor.js';
import { McpManager } from './mcp/manager.js';
import { WorkspaceText } from './interop/workspace-text.js';
import type { ResolveTarget } from './slots/resolve.js';
import { SlotService, type SlotOverview, type SlotStatus } from './slots/slot-service.js';
import { allowListEnv } from './secrets/scrub.js';
import { HookRunner } from './runtime/hook-runner.js';
import { TrustStore } from './interop/trust-store.js';
import { MCP_INPUT_PREFIX } from './interop/external-mcp.js';
import type { Interop } from './interop/workspace-power.js';
import { WorkspaceTrust } from './interop/trust-actions.js';
import { agentNotLoaded, interopFindings, type AgentListRow } from './interop/report.js';
import type { CreatePepeOptions } from './facade/create-options.js';
import { LayeredConfig } from './facade/layered-config.js';
import { AgentCommands } from './facade/agent-commands.js';
import { runWithHooks } from './facade/hooked-turn.js';
import { approveNow } from './facade/approve-now.js';
import { SlotCommands, type SlotTestInput, type SlotTestResult } from './facade/slot-commands.js';

/**
 * The facade both hosts use (spec: one core, two surfaces). The CLI and the extension build one
 * of these and render what it returns; neither computes slot state or refusals on its own.
 */
export class Pepe {
  readonly paths: PepePaths;
  readonly store: ConfigStore;
  readonly log: EventLog;
  readonly registry: PluginRegistry;
  readonly slots: SlotService;
  readonly builtins: Builtins;
  readonly env: NodeJS.ProcessEnv;
  readonly sessions: SessionStore;
  readonly usage: UsageLedger;
  readonly pending: PendingApprovals;
  readonly runtime: AgentRuntime;
  readonly heartbeat: Heartbeat;
  /** MCP servers: started on first use, kept across turns, stopped on dispose. */
  readonly mcp: McpManager;
  /** Default cwd for commands and root for relative file paths. */
  readonly workspace: string;
  /** Prompt files (`/name`) and skills, the workspace's only while it is trusted. */
  readonly interop: WorkspaceText;
  /** What the person accepted from workspaces (issue 24), kept in PEPE_HOME. */
  readonly trust: TrustStore;
  /** Hooks from config.json and the accepted workspace hooks file. */
  readonly hooks: HookRunner;
  /** `pepe trust …` and the editor's acceptance. */
  readonly workspaceTrust: WorkspaceTrust;
  /** Grants this process holds in memory, published and revocable from any process (issue 25). */
  readonly liveGrants: LiveGrants;
  /** `pepe grants list | revoke | clear` and the Grants view. */
  readonly grants: GrantControls;
  /** `pepe slot …` and `pepe memory …` (facade/slot-commands.ts). */
  private readonly slotCommands: SlotCommands;
  /** Adding, listing and exporting agents (facade/agent-commands.ts). */
  private readonly agentCommands: AgentCommands;
  /** config.json with the files beside it that apply (facade/layered-config.ts). */
  private readonly layered: LayeredConfig;
  private workspaceTrusted: boolean;
  private readonly untrusted: boolean;

  constructor(options: CreatePepeOptions = {}) {
    this.env = options.env ?? process.env;
    this.workspaceTrusted = options.trusted ?? true;
    this.untrusted = options.untrusted === true;
    this.paths = pepePaths(resolveHome(options.home, this.env));
    this.store = new ConfigStore(this.paths.config);
    this.trust = new TrustStore(join(this.paths.home, 'trust.json'));
    this.workspace = options.workspace ?? process.cwd();
    this.layered = new LayeredConfig({ store: this.store, trust: this.trust, home: this.paths.home, workspace: this.workspace, vscodeUserMcp: options.vscodeUserMcp ?? null, untrusted: this.untrusted, filesAllowed: () => this.workspaceFilesAllowed });
    this.log = new EventLog(this.paths.logs, () => this.secrets());
    this.registry = new PluginRegistry(this.paths.plugins, { env: () => scrubEnv(this.env, this.config), exposeEnv: () => this.config.secrets?.expose_env ?? [], onOutput: options.onPluginOutput ?? ((plugin, text) => this.log.write({ kind: 'plugin_output', plugin, text })) });
    // Relative `mock:<script>` paths in config.json resolve against PEPE_HOME, where the file lives.
    const providerOptions: CreateProviderOptions = { baseDir: this.paths.home, ...options.providerOptions };
    this.interop = new WorkspaceText(this.paths.home, this.workspace, () => this.workspaceTrusted);
    this.builtins = new Builtins(this.paths, () => this.config, options.sandboxSurface, (messages, model, signal) =>
      summariseWithModel(messages, model, { config: this.config, env: this.env, providerOptions }, signal),
    );
    this.usage = new UsageLedger(this.paths.usage);
    this.slots = new SlotService({ config: () => this.config, registry: this.registry, log: this.log, builtins: this.builtins, usageTiers: () => this.usageTiers(), sandboxStatus: () => this.builtins.sandbox.status() });
    const secrets = () => this.secrets();
    this.sessions = new SessionStore(this.paths.sessions, secrets);
    this.pending = new PendingApprovals(this.paths.approvals, { persistAlwaysAllow: (agent, tool) => this.allowAlways(agent, tool), secrets });
    this.mcp = new McpManager({ home: this.paths.home, env: this.env, config: () => this.config, sources: () => this.workspaceItems()?.overlay.mcpSources ?? {}, awaiting: () => this.awaitingMcp(), trusted: () => this.workspaceTrusted, edit: (mutate) => this.edit(mutate), onNotice: (server, text) => this.log.write({ kind: 'info', message: text, mcpServer: server }) });
    this.hooks = new HookRunner({ hooks: () => this.workspaceItems()?.hooks ?? [], workspace: this.workspace, pepeHome: this.paths.home, env: () => allowListEnv(this.env, this.config), secrets, log: (message, detail) => this.log.write({ kind: 'info', message, ...detail }) });
    this.workspaceTrust = new WorkspaceTrust({ trust: this.trust, full: () => this.layered.full(), reload: () => this.reload() });
    this.liveGrants = new LiveGrants(join(this.paths.home, 'grants'));
    this.grants = new GrantControls({ store: this.store, config: () => this.config, agentSource: (agent) => this.workspaceItems()?.agents.find((a) => a.name === agent && a.status === 'loaded')?.source ?? null, sessions: this.sessions, live: this.liveGrants, reload: () => this.reload() });
    this.runtime = new AgentRuntime({
      live: this.liveGrants, saved: new SavedOnDisk(this.paths.config), hooks: (turn) => this.hooks.forTurn(turn),
      config: () => this.config, env: this.env, paths: this.paths, slots: this.slots, builtins: this.builtins, log: this.log, routes: { add: (from, to) => this.routeAdd(from, to), remove: (from, to) => this.routeRemove(from, to) },
      allowAlways: (agent, tool) => this.allowAlways(agent, tool), sessions: this.sessions, usage: this.usage, pending: this.pending, prompter: options.prompter ?? null, workspace: this.workspace,
      providerOptions, trusted: () => this.workspaceTrusted, mcp: this.mcp, ...(options.writeFile ? { writeFile: options.writeFile } : {}), ...(options.editorFeedback ? { editorFeedback: options.editorFeedback } : {}),
    });

    this.slotCommands = new SlotCommands({ config: () => this.config, slots: this.slots, registry: this.registry, builtins: this.builtins, env: this.env, workspace: this.workspace, edit: (mutate) => this.edit(mutate) });
    this.agentCommands = new AgentCommands({ config: () => this.config, workspaceItems: () => this.workspaceItems(), registry: this.registry, paths: this.paths, slotName: (slot) => this.slotCommands.slotName(slot), edit: (mutate) => this.edit(mutate) });
    this.heartbeat = new Heartbeat({ config: () => this.config, slots: this.slots, run: (o) => this.run(o), sessions: this.sessions, agentsDir: this.paths.agents }, join(this.paths.home, 'heartbeat.json'));
  }

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

  /** Values masked wherever Pepe writes or shows text: keys, and every MCP entry's input secret. */
  private secrets(): string[] {
    const inputs = Object.entries(this.env).filter(([k, v]) => k.startsWith(MCP_INPUT_PREFIX) && v).map(([, v]) => v!);
    return [...new Set([...secretValues(this.env, this.config), ...inputs])].sort((a, b) => b.length - a.length);
  }

  private awaitingMcp(): { name: string; source: string; status: 'awaiting' | 'changed' }[] {
    const i = this.workspaceItems();
    if (!i?.workspace) return [];
    return i.items.filter((it) => it.kind === 'mcp' && it.status !== 'accepted').map((it) => ({ name: it.name, source: it.file, status: it.status as 'awaiting' | 'changed' }));
  }

  /** One turn of one agent (spec 4.1). */
  run(opts: RunTurnOptions): Promise<TurnResult> {
    if (!this.config.agents?.[opts.agent]) {
      const file = this.workspaceItems()?.agents.find((a) => a.name === opts.agent);
      if (file) return Promise.reject(new UsageError(agentNotLoaded(file, this.workspaceItems()!)));
    }
    if (!this.hooks.has('UserPromptSubmit') && !this.hooks.has('SessionStart') && !this.hooks.has('Stop')) return this.runtime.runTurn(opts);
    return runWithHooks(this.hooks, (o) => this.runtime.runTurn(o), opts);
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

  private async edit<T>(mutate: (raw: Record<string, unknown>, current: PepeConfig) => T): Promise<T> {
    const result = await this.store.update(mutate);
    await this.reload();
    return result;
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
    return installPlugin(this.registry, path);
  }

  pluginRemove(name: string): Promise<PluginInfo> {
    return removePlugin(this.registry, name);
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
    return approveNow({ reload: () => this.reload(), config: () => this.config, pending: this.pending, sessions: this.sessions, runtime: this.runtime }, id, opts);
  }

  // ---- health ----

  async doctor(): Promise<DoctorFinding[]> {
    return [...(await runDoctor(this.layered.current, await this.registry.list(), this.slots, this.env, this.paths.home)), ...(await mcpFindings(this.mcp)), ...(await this.interop.findings()), ...interopFindings(this.workspaceItems())];
  }

  /** The workspace's checkpoints (a shadow repository outside the project): for hosts' restore and compare. */
  checkpoints(): Promise<Checkpoints> {
    return Checkpoints.open(this.paths.home, this.workspace);
  }

  /** A workspace file as attached context (`@file`): read through the file tools' checks and caps. */
  attachFile(path: string): Promise<TurnAttachment> {
    return fileAttachment(path, { workspace: this.workspace, paths: this.paths });
  }

  dispose(): void {
    this.heartbeat.stop();
    this.registry.dispose();
    this.runtime.dispose();
    this.liveGrants.dispose();
    this.builtins.sandbox.dispose();
  }
}

export async function createPepe(options: CreatePepeOptions = {}): Promise<Pepe> {
  const pepe = new Pepe(options);
  await pepe.reload();
  return pepe;
}
