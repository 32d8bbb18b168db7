import { join } from 'node:path';
import { Builtins } from '../slots/builtin/index.js';
import type { PepeConfig } from '../config/schema.js';
import { ConfigStore, type ConfigSnapshot } from '../config/store.js';
import { EventLog } from '../log.js';
import { pepePaths, resolveHome, type PepePaths } from '../paths.js';
import { PluginRegistry } from '../plugins/registry.js';
import type { CreateProviderOptions } from '../models/factory.js';
import { PendingApprovals } from '../permissions/pending.js';
import type { RunTurnOptions, TurnResult } from '../events.js';
import type { AgentRuntime } from '../runtime/agent-runtime.js';
import { GrantControls } from '../grant-controls.js';
import { LiveGrants } from '../permissions/live-grants.js';
import { SavedOnDisk } from '../permissions/saved-on-disk.js';
import { Heartbeat } from '../runtime/heartbeat.js';
import { SessionStore } from '../runtime/session-store.js';
import { UsageLedger } from '../runtime/usage.js';
import { allowListEnv, scrubEnv, secretValues } from '../secrets/scrub.js';
import { McpManager } from '../mcp/manager.js';
import { WorkspaceText } from '../interop/workspace-text.js';
import { SlotService } from '../slots/slot-service.js';
import { HookRunner } from '../runtime/hook-runner.js';
import { TrustStore } from '../interop/trust-store.js';
import type { Interop } from '../interop/workspace-power.js';
import { WorkspaceTrust } from '../interop/trust-actions.js';
import type { CreatePepeOptions } from './create-options.js';
import type { RuntimeDeps } from '../runtime/runtime-deps.js';
import { LayeredConfig } from './layered-config.js';
import { AgentCommands } from './agent-commands.js';
import { SlotCommands } from './slot-commands.js';

/**
 * The facade's parts and how they are wired to one another (the base of `Pepe` in core/pepe.ts).
 * Every part is protected: a host reaches the core through the facade's methods only, and the
 * compiler holds it to that. The abstract members are the facade's own methods the parts call back.
 */
export abstract class PepeWiring {
  /** Where PEPE_HOME's files are (read-only data for the hosts). */
  readonly paths: PepePaths;
  /** The environment the core runs with (an MCP entry's input secrets join it). */
  readonly env: NodeJS.ProcessEnv;
  /** Default cwd for commands and root for relative file paths. */
  readonly workspace: string;
  protected readonly store: ConfigStore;
  protected readonly log: EventLog;
  protected readonly registry: PluginRegistry;
  protected readonly slots: SlotService;
  protected readonly builtins: Builtins;
  protected readonly sessions: SessionStore;
  protected readonly usage: UsageLedger;
  protected readonly pending: PendingApprovals;
  /** The agent runtime and everything a turn uses, loaded with the first turn (runtime()). */
  private runtimeLoad: Promise<AgentRuntime> | undefined;
  private loadedRuntime: AgentRuntime | undefined;
  protected disposed = false;
  protected readonly heartbeat: Heartbeat;
  /** MCP servers: started on first use, kept across turns, stopped on dispose. */
  protected readonly mcp: McpManager;
  /** Prompt files (`/name`) and skills, the workspace's only while it is trusted. */
  protected readonly interop: WorkspaceText;
  /** What the person accepted from workspaces (issue 24), kept in PEPE_HOME. */
  protected readonly trust: TrustStore;
  /** Hooks from config.json and the accepted workspace hooks file. */
  protected readonly hooks: HookRunner;
  /** `pepe trust …` and the editor's acceptance. */
  protected readonly workspaceTrust: WorkspaceTrust;
  /** Grants this process holds in memory, published and revocable from any process (issue 25). */
  protected readonly liveGrants: LiveGrants;
  /** `pepe grants list | revoke | clear` and the Grants view. */
  protected readonly grants: GrantControls;
  /** `pepe slot …` and `pepe memory …` (slot-commands.ts). */
  protected readonly slotCommands: SlotCommands;
  /** Adding, listing and exporting agents (agent-commands.ts). */
  protected readonly agentCommands: AgentCommands;
  /** config.json with the files beside it that apply (layered-config.ts). */
  protected readonly layered: LayeredConfig;
  protected workspaceTrusted: boolean;
  protected readonly untrusted: boolean;

  abstract get config(): PepeConfig;
  abstract get workspaceFilesAllowed(): boolean;
  abstract reload(): Promise<ConfigSnapshot>;
  abstract workspaceItems(): Interop | null;
  abstract run(opts: RunTurnOptions): Promise<TurnResult>;
  abstract usageTiers(): Record<string, string>;
  abstract allowAlways(agent: string, tool: string): Promise<void>;
  abstract routeAdd(from: string, to: string): Promise<boolean>;
  abstract routeRemove(from: string, to: string): Promise<boolean>;

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
      // (It brings the model providers: loaded with the runtime, on-demand.ts.)
      import('./on-demand.js').then(({ summariseWithModel }) => summariseWithModel(messages, model, { config: this.config, env: this.env, providerOptions }, signal)),
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
    this.runtimeDeps = (): RuntimeDeps => ({
      live: this.liveGrants, saved: new SavedOnDisk(this.paths.config), hooks: (turn) => this.hooks.forTurn(turn),
      config: () => this.config, env: this.env, paths: this.paths, slots: this.slots, builtins: this.builtins, log: this.log, routes: { add: (from, to) => this.routeAdd(from, to), remove: (from, to) => this.routeRemove(from, to) },
      allowAlways: (agent, tool) => this.allowAlways(agent, tool), sessions: this.sessions, usage: this.usage, pending: this.pending, prompter: options.prompter ?? null, workspace: this.workspace,
      providerOptions, trusted: () => this.workspaceTrusted, mcp: this.mcp, ...(options.writeFile ? { writeFile: options.writeFile } : {}), ...(options.editorFeedback ? { editorFeedback: options.editorFeedback } : {}),
    });

    this.slotCommands = new SlotCommands({ config: () => this.config, slots: this.slots, registry: this.registry, builtins: this.builtins, env: this.env, workspace: this.workspace, edit: (mutate) => this.edit(mutate) });
    this.agentCommands = new AgentCommands({ config: () => this.config, workspaceItems: () => this.workspaceItems(), registry: this.registry, paths: this.paths, slotName: (slot) => this.slotCommands.slotName(slot), edit: (mutate) => this.edit(mutate) });
    this.heartbeat = new Heartbeat({ config: () => this.config, slots: this.slots, run: (o) => this.run(o), sessions: this.sessions, agentsDir: this.paths.agents }, join(this.paths.home, 'heartbeat.json'));
  }

  private readonly runtimeDeps: () => RuntimeDeps;

  /**
   * The agent runtime: it (and what only a turn uses: the turn loop, the tools, the barrier's
   * command rules, agent cores) loads with the first turn (on-demand.ts), so a command that runs
   * none (`pepe slot list`, a view in the editor) does not load it.
   */
  protected runtime(): Promise<AgentRuntime> {
    this.runtimeLoad ??= import('./on-demand.js').then(({ AgentRuntime }) => {
      const runtime = new AgentRuntime(this.runtimeDeps());
      if (this.disposed) runtime.dispose();
      else this.loadedRuntime = runtime;
      return runtime;
    });
    return this.runtimeLoad;
  }

  /** Lets go of the runtime if it was loaded (and of one still loading when it arrives), and stops the MCP servers. */
  protected disposeRuntime(): void {
    this.disposed = true;
    this.loadedRuntime?.dispose();
    this.loadedRuntime = undefined;
    void this.mcp.dispose();
  }

  /** Values masked wherever Pepe writes or shows text: keys, and every MCP entry's input secret. */
  protected secrets(): string[] {
    return secretValues(this.env, this.config);
  }

  private awaitingMcp(): { name: string; source: string; status: 'awaiting' | 'changed' }[] {
    const i = this.workspaceItems();
    if (!i?.workspace) return [];
    return i.items.filter((it) => it.kind === 'mcp' && it.status !== 'accepted').map((it) => ({ name: it.name, source: it.file, status: it.status as 'awaiting' | 'changed' }));
  }

  /** A change to config.json under the store's lock, then a reload. */
  protected async edit<T>(mutate: (raw: Record<string, unknown>, current: PepeConfig) => T): Promise<T> {
    const result = await this.store.update(mutate);
    await this.reload();
    return result;
  }
}
