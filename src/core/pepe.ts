import { Checkpoints } from './checkpoints/checkpoints.js';
import { fileAttachment, type TurnAttachment } from './context-attachments.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Builtins, type SandboxSurface } from './slots/builtin/index.js';
import { addAgent, addModel, addRoute, assertName, clearSlot, editAgent, linkSchema, removeAgent, removeRoute, setSlot, type AgentEdit, type SlotTarget } from './config/edits.js';
import { canonicalAgent, routeGraph, type RouteGraph } from './routing/route-graph.js';
import type { AgentConfig, ModelConfig, PepeConfig } from './config/schema.js';
import { ConfigStore, type ConfigSnapshot } from './config/store.js';
import type { SectionProblem } from './config/sections.js';
import { runDoctor, type DoctorFinding } from './doctor.js';
import { UsageError } from './errors.js';
import { EventLog } from './log.js';
import type { Message } from './messages.js';
import { pepePaths, resolveHome, type PepePaths } from './paths.js';
import { installPlugin, removePlugin } from './plugins/install.js';
import { PluginRegistry, type InProcessPlugin, type PluginInfo } from './plugins/registry.js';
import type { CreateProviderOptions } from './models/factory.js';
import { PendingApprovals, widenEntries, type ApprovedCall, type Prompter } from './permissions/index.js';
import type { ToolOutcome } from './tools/tool.js';
import type { RunTurnOptions, TurnResult } from './events.js';
import { AgentRuntime } from './runtime/agent-runtime.js';
import { GrantControls } from './grant-controls.js';
import { LiveGrants } from './permissions/live-grants.js';
import { SavedOnDisk } from './permissions/saved-on-disk.js';
import { switchNotice } from './runtime/turn-helpers.js';
import { Heartbeat } from './runtime/heartbeat.js';
import { SessionStore } from './runtime/session-store.js';
import { estimateTokens, summariseWithModel } from './runtime/compaction.js';
import { UsageLedger } from './runtime/usage.js';
import { conversationFigures, type ConversationFigures } from './runtime/conversation-figures.js';
import { scrubEnv, secretValues } from './secrets/scrub.js';
import { candidatesFor } from './slots/availability.js';
import { memoryReindex, memoryStatus, type MemoryReindexResult, type MemoryStatus } from './slots/memory-admin.js';
import { DEFAULT_SANDBOX_TIMEOUT_MS } from './slots/builtin/sandbox.js';
import { staticChain } from './slots/builtin/model-select.js';
import { mcpFindings } from './mcp/doctor.js';
import { McpManager } from './mcp/manager.js';
import { WorkspaceText } from './interop/workspace-text.js';
import { isSlotName, SLOT_NAMES, type SlotName } from './slots/names.js';
import { namesBuiltin, projectOf, type ResolveTarget } from './slots/resolve.js';
import { SandboxRefusedError, SlotService, type SlotAnswer, type SlotOverview, type SlotStatus } from './slots/slot-service.js';
import { allowListEnv } from './secrets/scrub.js';
import { HookRunner } from './runtime/hook-runner.js';
import { TrustStore } from './interop/trust-store.js';
import { MCP_INPUT_PREFIX } from './interop/external-mcp.js';
import { loadInterop, withOverlay, type Interop } from './interop/workspace-power.js';
import { WorkspaceTrust } from './interop/trust-actions.js';
import { agentFileText, agentNotLoaded, interopFindings, type AgentListRow } from './interop/report.js';

export interface CreatePepeOptions {
  /** PEPE_HOME; defaults to $PEPE_HOME, then ~/.pepe. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Shows built-in sandbox commands as they run (VS Code terminal). */
  sandboxSurface?: SandboxSurface;
  /** Where plugins' console output goes (default: the log file). */
  onPluginOutput?: (plugin: string, text: string) => void;
  /** How the surface asks a person (CLI: TTY prompt; VS Code: modal). Absent: nobody to ask. */
  prompter?: Prompter | null;
  /** Default cwd for commands and root for relative file paths (default: process.cwd()). */
  workspace?: string;
  /** Extra model sources (vscode.lm), retry tuning, where mock scripts are found. */
  providerOptions?: CreateProviderOptions;
  /**
   * Workspace Trust (spec 7): agent cores are code; when false they run with base_input /
   * base_output only and the turn says why. Default true (the CLI runs what its user points at).
   */
  trusted?: boolean;
  /** How write_file and edit_file write (VS Code: through its documents, for undo and dirty buffers). Default: straight to disk. */
  writeFile?: import('./tools/tool.js').FileWriter;
  /** The editor's errors and warnings after a file tool wrote (issue 25): VS Code sets it, the CLI does not. */
  editorFeedback?: import('./tools/editor-feedback.js').EditorFeedback;
  /** Leave every workspace-supplied file out (`--untrusted`): agent files, MCP entries and hooks of the workspace. */
  untrusted?: boolean;
  /** The user's VS Code `mcp.json` (the extension: its profile's; the CLI: the documented default). Absent: not read. */
  vscodeUserMcp?: string | null;
}

export interface SlotTestInput {
  agent?: string;
  project?: string;
  query?: string;
  command?: string[];
}

/** What `pepe slot test` prints. A refused sandbox call has `refused` set and `result` null. */
export type SlotTestResult = Omit<SlotAnswer<unknown>, 'result'> & { result: unknown; refused?: string };

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
  private snapshot: ConfigSnapshot = { exists: false, raw: {}, config: {}, unknown: [], setAside: [] };
  private workspaceTrusted: boolean;
  private readonly untrusted: boolean;
  private readonly vscodeUserMcp: string | null;
  /** Files beside config.json: with the workspace's (when it may load) and the person's own only. */
  private interopFull: Interop | null = null;
  private interopPersonal: Interop | null = null;

  constructor(options: CreatePepeOptions = {}) {
    this.env = options.env ?? process.env;
    this.workspaceTrusted = options.trusted ?? true;
    this.untrusted = options.untrusted === true;
    this.vscodeUserMcp = options.vscodeUserMcp ?? null;
    this.paths = pepePaths(resolveHome(options.home, this.env));
    this.store = new ConfigStore(this.paths.config);
    this.trust = new TrustStore(join(this.paths.home, 'trust.json'));
    this.log = new EventLog(this.paths.logs, () => this.secrets());
    this.registry = new PluginRegistry(this.paths.plugins, {
      env: () => scrubEnv(this.env, this.config),
      exposeEnv: () => this.config.secrets?.expose_env ?? [],
      onOutput: options.onPluginOutput ?? ((plugin, text) => this.log.write({ kind: 'plugin_output', plugin, text })),
    });
    // Relative `mock:<script>` paths in config.json resolve against PEPE_HOME, where the file lives.
    const providerOptions: CreateProviderOptions = { baseDir: this.paths.home, ...options.providerOptions };
    this.workspace = options.workspace ?? process.cwd();
    this.interop = new WorkspaceText(this.paths.home, this.workspace, () => this.workspaceTrusted);
    this.builtins = new Builtins(this.paths, () => this.config, options.sandboxSurface, (messages, model, signal) =>
      summariseWithModel(messages, model, { config: this.config, env: this.env, providerOptions }, signal),
    );
    this.usage = new UsageLedger(this.paths.usage);
    this.slots = new SlotService({
      config: () => this.config,
      registry: this.registry,
      log: this.log,
      builtins: this.builtins,
      usageTiers: () => this.usageTiers(),
      sandboxStatus: () => this.builtins.sandbox.status(),
    });
    const secrets = () => this.secrets();
    this.sessions = new SessionStore(this.paths.sessions, secrets);
    this.pending = new PendingApprovals(this.paths.approvals, { persistAlwaysAllow: (agent, tool) => this.allowAlways(agent, tool), secrets });
    this.mcp = new McpManager({ home: this.paths.home, env: this.env, config: () => this.config, sources: () => this.workspaceItems()?.overlay.mcpSources ?? {}, awaiting: () => this.awaitingMcp(), trusted: () => this.workspaceTrusted, edit: (mutate) => this.edit(mutate), onNotice: (server, text) => this.log.write({ kind: 'info', message: text, mcpServer: server }) });
    this.hooks = new HookRunner({
      hooks: () => this.workspaceItems()?.hooks ?? [],
      workspace: this.workspace,
      pepeHome: this.paths.home,
      env: () => allowListEnv(this.env, this.config),
      secrets,
      log: (message, detail) => this.log.write({ kind: 'info', message, ...detail }),
    });
    this.workspaceTrust = new WorkspaceTrust({ trust: this.trust, full: () => this.interopFull, reload: () => this.reload() });
    this.liveGrants = new LiveGrants(join(this.paths.home, 'grants'));
    this.grants = new GrantControls({
      store: this.store,
      config: () => this.config,
      agentSource: (agent) => this.workspaceItems()?.agents.find((a) => a.name === agent && a.status === 'loaded')?.source ?? null,
      sessions: this.sessions,
      live: this.liveGrants,
      reload: () => this.reload(),
    });
    this.runtime = new AgentRuntime({
      live: this.liveGrants,
      saved: new SavedOnDisk(this.paths.config),
      hooks: (turn) => this.hooks.forTurn(turn),
      config: () => this.config,
      env: this.env,
      paths: this.paths,
      slots: this.slots,
      builtins: this.builtins,
      log: this.log,
      routes: { add: (from, to) => this.routeAdd(from, to), remove: (from, to) => this.routeRemove(from, to) },
      allowAlways: (agent, tool) => this.allowAlways(agent, tool),
      sessions: this.sessions,
      usage: this.usage,
      pending: this.pending,
      prompter: options.prompter ?? null,
      workspace: this.workspace,
      providerOptions,
      trusted: () => this.workspaceTrusted,
      mcp: this.mcp,
      ...(options.writeFile ? { writeFile: options.writeFile } : {}),
      ...(options.editorFeedback ? { editorFeedback: options.editorFeedback } : {}),
    });

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
    return this.workspaceFilesAllowed ? this.interopFull : this.interopPersonal;
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
    return this.runWithHooks(opts);
  }

  /** A person's turn with the prompt and session hooks around it (they can block the prompt or add context, never allow anything). */
  private async runWithHooks(opts: RunTurnOptions): Promise<TurnResult> {
    const common = { agent: opts.agent, session_id: opts.sessionId ?? null };
    const context: string[] = [];
    if (!opts.sessionId) context.push(...(await this.hooks.promptEvent('SessionStart', { ...common, source: 'startup' }, opts.signal)).context);
    const prompt = await this.hooks.promptEvent('UserPromptSubmit', { ...common, prompt: opts.text }, opts.signal);
    if (prompt.blocked) throw new UsageError(`the prompt was blocked by a hook: ${prompt.blocked}`);
    context.push(...prompt.context);
    const text = context.length ? `${opts.text}\n\n[hook context]\n${context.join('\n')}` : opts.text;
    const result = await this.runtime.runTurn({ ...opts, text });
    await this.hooks.notify('Stop', { agent: opts.agent, session_id: result.sessionId, status: result.status });
    return result;
  }

  /** config.json with the agents and MCP servers of files that apply (config.json wins a name). */
  get config(): PepeConfig {
    const interop = this.workspaceItems();
    if (this.merged?.base !== this.snapshot.config || this.merged.interop !== interop) this.merged = { base: this.snapshot.config, interop, config: withOverlay(this.snapshot.config, interop) };
    return this.merged.config;
  }

  private merged: { base: PepeConfig; interop: Interop | null; config: PepeConfig } | null = null;

  get configSnapshot(): ConfigSnapshot {
    return this.snapshot;
  }

  /**
   * Sections of config.json set aside because they are invalid (each takes its defaults; the
   * rest applies): for a host to show with their fixes. Empty when the file is clean.
   */
  configSetAside(): SectionProblem[] {
    return this.snapshot.setAside;
  }

  /** Re-reads config.json; throws ConfigError (and keeps the previous snapshot) when it is broken. */
  async reload(): Promise<ConfigSnapshot> {
    this.snapshot = await this.store.read();
    const common = { home: this.paths.home, vscodeUserMcp: this.vscodeUserMcp, config: this.snapshot.config, trust: this.trust };
    this.interopPersonal = await loadInterop({ ...common, workspace: null });
    this.interopFull = this.untrusted ? this.interopPersonal : await loadInterop({ ...common, workspace: this.workspace });
    return this.snapshot;
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
    this.assertTarget(target);
    return this.slots.status(target);
  }

  /** Every slot with its project and agent overrides, each resolved for its scope (one query for a host's tree). */
  slotOverview(): Promise<SlotOverview[]> {
    return this.slots.overview();
  }

  async slotSet(slot: string, plugin: string, target: SlotTarget = {}): Promise<void> {
    const name = this.slotName(slot);
    this.assertTarget(target);
    const plugins = await this.registry.list();
    const { eligible } = candidatesFor(name, plugins);
    // "default" pins the built-in at this scope (install-wide, the same as clearing the slot).
    if (!namesBuiltin(plugin) && !eligible.some((p) => p.name === plugin)) {
      const installed = plugins.find((p) => p.name === plugin && !p.error);
      const why = installed ? `plugin "${plugin}" claims slot "${installed.slot}", not "${name}"` : `no installed plugin is named "${plugin}"`;
      const offer = eligible.length ? `plugins that claim ${name}: ${eligible.map((p) => p.name).join(', ')}` : `no installed plugin claims ${name}; install one with pepe plugin install PATH`;
      throw new UsageError(`${why}; ${offer}`);
    }
    await this.edit((raw) => setSlot(raw, name, plugin, target));
    this.slots.clearRecord(name, 'set');
  }

  async slotClear(slot: string, target: SlotTarget = {}): Promise<string | null> {
    const name = this.slotName(slot);
    this.assertTarget(target);
    const previous = await this.edit((raw) => clearSlot(raw, name, target));
    this.slots.clearRecord(name, 'clear');
    return previous;
  }

  /** Calls a slot exactly as the runtime will (resolution + guard) and reports who answered. */
  async slotTest(slot: string, input: SlotTestInput = {}): Promise<SlotTestResult> {
    const name = this.slotName(slot);
    this.assertTarget(input);
    const agent = input.agent ?? null;
    const agentConfig = agent ? this.config.agents?.[agent] ?? {} : {};
    const needQuery = () => {
      if (!input.query) throw new UsageError(`slot test ${name} needs --query TEXT`);
      return input.query;
    };
    switch (name) {
      case 'memory':
        return this.slots.memorySearch(agent ?? 'default', needQuery(), { limit: 20 });
      case 'web_search':
        return this.slots.webSearch(agent, needQuery(), { limit: 10 });
      case 'sandbox': {
        const [program, ...argv] = input.command ?? [];
        if (!program) throw new UsageError('slot test sandbox needs a command after --, e.g. pepe slot test sandbox -- env');
        // Exactly as a turn runs a command: in the workspace, with the same environment and limits.
        const opts = { cwd: this.workspace, workspace: this.workspace, env: scrubEnv(this.env, this.config), timeoutMs: this.config.sandbox?.timeout_ms ?? DEFAULT_SANDBOX_TIMEOUT_MS };
        try {
          return await this.slots.sandboxRun(agent, program, argv, opts);
        } catch (e) {
          if (!(e instanceof SandboxRefusedError)) throw e;
          return { slot: name, occupant: e.occupant, answeredBy: 'none (refused)', fallback: e.fallback, durationMs: e.durationMs, result: null, refused: e.message };
        }
      }
      case 'model_select':
        return this.slots.modelChain(agent ?? 'default', agentConfig);
      case 'heartbeat_interval':
        return this.slots.heartbeatAllowed(agent, projectOf(this.config, input));
      case 'compaction': {
        // The built-in summarises the way a turn does, with the agent's first model. The sample
        // conversation is said to fill that model's window, so a turn would condense it now.
        const messages = sampleConversation();
        const first = staticChain(this.config, agent ? this.config.agents?.[agent] : undefined)[0] ?? { id: 'mock', provider: 'mock', model: 'mock' };
        const model = { ...first, context_window: estimateTokens(messages) };
        return this.slots.compact(agent, { messages, model, agentConfig: agent ? agentConfig : null, sessionKey: null });
      }
      case 'harness':
        throw new UsageError('the harness answers whole turns, not single calls: test it with pepe run AGENT "hello"');
    }
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

  async agentAdd(name: string, agent: AgentConfig): Promise<void> {
    // A name is checked before anything is created: "../x" or "a/b" must not make a folder first.
    assertName('agent', name);
    for (const [slot, plugin] of Object.entries(agent.slots ?? {})) {
      const { eligible } = candidatesFor(this.slotName(slot), await this.registry.list());
      if (!namesBuiltin(plugin) && !eligible.some((p) => p.name === plugin)) {
        throw new UsageError(`--slots ${slot}:${plugin}: no installed plugin named "${plugin}" claims ${slot}${eligible.length ? ` (these do: ${eligible.map((p) => p.name).join(', ')})` : ''}`);
      }
    }
    await this.edit((raw) => addAgent(raw, name, agent));
    mkdirSync(join(this.paths.agents, name), { recursive: true });
  }

  /** Spec 5.2 "Always": the tool joins the agent's persisted `auto_approve`. */
  allowAlways(agent: string, tool: string): Promise<void> {
    return this.edit((raw) => {
      const agents = raw.agents as Record<string, Record<string, unknown>> | undefined;
      const cfg = agents?.[agent];
      if (!cfg) {
        const file = this.workspaceItems()?.agents.find((a) => a.name === agent && a.status === 'loaded');
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
    const agents = this.config.agents ?? {};
    const sources = this.workspaceItems()?.agents ?? Object.keys(agents).map((name) => ({ name, source: 'config.json', origin: 'config' as const, status: 'loaded' as const, description: null }));
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
    return this.workspaceItems()?.problems ?? [];
  }

  /** One agent as a Markdown agent file (front matter and the system prompt as its body). */
  agentExport(name: string): string {
    const agent = this.config.agents?.[name];
    if (!agent) throw new UsageError(`unknown agent "${name}"; see pepe agent list`);
    return agentFileText(name, agent, this.workspaceItems()?.agents.find((a) => a.name === name && a.status === 'loaded')?.description);
  }

  // ---- memory ----

  /** Who answers each agent's memory searches (or one agent's), what it can do, its index. */
  async memoryStatus(agent?: string): Promise<MemoryStatus[]> {
    const deps = { slots: this.slots, builtins: this.builtins, registry: this.registry };
    return Promise.all(this.memoryAgents(agent).map((a) => memoryStatus(deps, a)));
  }

  /** Rebuilds each agent's memory index (or one agent's) through its occupant. */
  async memoryReindex(agent?: string): Promise<MemoryReindexResult[]> {
    const deps = { slots: this.slots, builtins: this.builtins, registry: this.registry };
    const out: MemoryReindexResult[] = [];
    for (const a of this.memoryAgents(agent)) out.push(await memoryReindex(deps, a));
    return out;
  }

  private memoryAgents(agent?: string): string[] {
    if (agent) {
      this.assertTarget({ agent });
      return [agent];
    }
    return Object.keys(this.config.agents ?? {});
  }

  // ---- approvals ----

  /**
   * Approves a parked call and runs it now (spec 5.4), in its session and directory, through the
   * same replay path as a follow-up; the session's next turn still tells the model. A call whose
   * agent or session no longer exists is refused and stays pending. `always` also adds the tool,
   * scoped to the risks shown, to the agent's auto_approve.
   */
  async approveNow(id: string, opts: { always?: boolean } = {}): Promise<ToolOutcome & { ran: boolean; call: ApprovedCall }> {
    await this.reload();
    const parked = await this.pending.get(id);
    if (parked.status === 'pending') {
      if (!this.config.agents?.[parked.agent]) throw new UsageError(`cannot approve ${parked.id}: agent ${parked.agent} no longer exists, so there is nobody to run it for; it stays pending (deny it with: pepe approvals deny ${parked.id})`);
      if (!parked.sessionId || !this.sessions.exists(parked.agent, parked.sessionId)) {
        throw new UsageError(`cannot approve ${parked.id}: its session${parked.sessionId ? ` ${parked.sessionId}` : ''} of ${parked.agent} no longer exists; it stays pending (deny it with: pepe approvals deny ${parked.id})`);
      }
    }
    const approved = await this.pending.approve(parked.id, opts);
    // Taken under the approval's lock: if a turn of that session took it first, that turn runs it.
    const call = await this.pending.takeApprovedById(approved.id);
    if (!call) return { content: `approved; ${approved.agent}'s current turn of that session took it and runs it`, isError: false, ran: false, call: approved };
    return { ...(await this.runtime.runApprovedNow(call)), call };
  }

  // ---- health ----

  async doctor(): Promise<DoctorFinding[]> {
    return [...(await runDoctor(this.snapshot, await this.registry.list(), this.slots, this.env, this.paths.home)), ...(await mcpFindings(this.mcp)), ...(await this.interop.findings()), ...interopFindings(this.workspaceItems())];
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

  private slotName(slot: string): SlotName {
    if (!isSlotName(slot)) throw new UsageError(`unknown slot "${slot}"; the slots are: ${SLOT_NAMES.join(', ')}`);
    return slot;
  }

  private assertTarget(target: { agent?: string | null; project?: string | null }): void {
    if (target.agent && !this.config.agents?.[target.agent]) throw new UsageError(`unknown agent "${target.agent}"; see pepe agent list`);
  }
}

export async function createPepe(options: CreatePepeOptions = {}): Promise<Pepe> {
  const pepe = new Pepe(options);
  await pepe.reload();
  return pepe;
}

function sampleConversation(): Message[] {
  const messages: Message[] = [{ role: 'system', content: 'You are a test agent.' }];
  for (let i = 1; i <= 15; i++) {
    messages.push({ role: 'user', content: `question ${i}` }, { role: 'assistant', content: `answer ${i}` });
  }
  return messages;
}
