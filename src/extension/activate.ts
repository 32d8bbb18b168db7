import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { ActiveAgent } from './active-agent.js';
import type { PepeExtensionApi, SlotOccupant } from './api.js';
import { registerChatPanels } from './chat/chat-panels.js';
import type { CommandContext } from './commands/command-context.js';
import { registerCommands } from './commands/register-commands.js';
import { loadCore } from './core-loader.js';
import { ManifestDiagnostics } from './diagnostics/manifest-diagnostics.js';
import { attachVsCodeTools } from './mcp/lm-tools.js';
import { registerMcp, type McpTesting } from './mcp/register.js';
import { ApiKeys } from './host/api-keys.js';
import { PepeHost } from './host/pepe-host.js';
import { WorkspaceTrust } from './host/workspace-trust.js';
import { ExtensionOccupants } from './occupants.js';
import { PepeStatusBar } from './status-bar.js';
import { SandboxTerminals } from './terminal/sandbox-terminals.js';
import { AgentsTree } from './views/agents-tree.js';
import { registerGrantsView } from './views/grants-tree.js';
import { AgentFailures } from './views/agent-failures.js';
import { RoutesTree } from './views/routes-tree.js';
import { DOC_SCHEME, ReadOnlyDocs } from './views/read-only-docs.js';
import { SlotsTree } from './views/slots-tree.js';
import { registerWorkspaceItems } from './views/workspace-items.js';
import { registerTasks, type TasksTesting } from './tasks/register.js';

/** Internals tests reach through the API outside production mode (extensionMode ≠ Production). */
export interface PepeTestingApi {
  host: PepeHost;
  trees: { slots: SlotsTree; routes: RoutesTree; agents: AgentsTree };
  /** The MCP Servers view and the @pepe participant's handler. */
  mcp: McpTesting;
  /** The Tasks view and its service (issue 28). */
  tasks: TasksTesting;
  terminalText(agent: string): string;
  /** Restricted Mode without a trust dialog (tests run VS Code with Workspace Trust off). */
  simulateTrust(trusted: boolean | undefined): void;
}

/**
 * The extension's composition root (spec 9.2; one per window). Activation only registers: the
 * views, the commands, the status bar, the log and the manifest diagnostics. The core (and with it
 * the plugins, execa, the model SDKs) is built by `PepeHost` the first time a view or a command
 * needs it, from dist/extension-core.js (core-bundle.ts), which is only required then.
 */
export function activate(context: vscode.ExtensionContext): PepeExtensionApi & { testing?: PepeTestingApi } {
  const started = performance.now();
  const subs = context.subscriptions;
  const log = vscode.window.createOutputChannel('Pepe', { log: true });
  subs.push(log);

  const apiKeys = new ApiKeys(context.secrets);
  // Restricted Mode: the core is built knowing whether the folder is trusted (granting trust rebuilds it).
  const trust = new WorkspaceTrust();
  const terminals = new SandboxTerminals();
  const active = new ActiveAgent(context.workspaceState);
  let host: PepeHost;
  const occupants = new ExtensionOccupants(() => host.refresh());
  host = new PepeHost(async (h) => {
    // The user's VS Code MCP configuration: the mcp.json of the profile this window runs in.
    const vscodeUserMcp = join(dirname(dirname(context.globalStorageUri.fsPath)), 'mcp.json');
    const built = await loadCore().buildPepe(h, { home: pepeHome(), workspace: workspaceFolder(), trusted: trust.trusted, apiKeys, log, terminals, occupants, vscodeUserMcp });
    attachVsCodeTools(built.pepe); // VS Code's own tools, for the agents granted them
    return built;
  });
  // Disposed in reverse order: the host (and Pepe, its plugin threads, watchers) before the terminals.
  subs.push(terminals, occupants, active, host);

  const diagnostics = vscode.languages.createDiagnosticCollection('pepe');
  subs.push(diagnostics, new ManifestDiagnostics(diagnostics, () => loadCore().checkManifest));

  const slots = new SlotsTree(host);
  const failures = new AgentFailures();
  subs.push(failures);
  const agents = new AgentsTree(host, active, failures);
  const chat = registerChatPanels(context, {
    isTrusted: () => trust.trusted,
    getPepe: () => host.get(),
    core: () => loadCore(),
    log,
    onDidChange: host.onDidChange,
    defaultAgent: (pepe) => active.resolve(pepe.config),
    onAgentSwitched: (agent) => void active.set(agent),
    onTurnEnded: (agent, status, error) => failures.turnEnded(agent, status, error),
    configState: () => {
      const snapshot = host.current?.configSnapshot;
      return { problem: host.configProblem, hasLastGood: snapshot?.exists === true, setAside: snapshot?.setAside ?? [], unknown: snapshot?.unknown ?? [] };
    },
  });
  const docs = new ReadOnlyDocs();
  subs.push(docs, vscode.workspace.registerTextDocumentContentProvider(DOC_SCHEME, docs));
  const ctx: CommandContext = {
    docs,
    host,
    log,
    active,
    apiKeys,
    diagnostics,
    refresh: () => host.refresh(),
    chat,
  };
  const routes = new RoutesTree(host, async (from, to) => {
    await vscode.commands.executeCommand('pepe.route.add', { from, to });
  });
  subs.push(slots, routes, agents);
  // MCP servers in the sidebar, and @pepe in VS Code's own chat.
  const mcp = registerMcp({ host, log, secrets: apiKeys, defaultAgent: (pepe) => active.resolve(pepe.config) ?? null });
  subs.push(...mcp.disposables);
  // What lets calls run unasked, from every window and the CLI; revocable from the view.
  subs.push(...registerGrantsView(host, log).disposables);
  // The workspace's agent files, MCP entries and hooks: offered for acceptance, reviewed from the views.
  subs.push(...registerWorkspaceItems({ host, apiKeys, log }));
  // Background tasks: the Tasks view, its commands, the approvals they wait for.
  const tasks = registerTasks({ host, log, workspace: workspaceFolder, home: pepeHome });
  subs.push(...tasks.disposables);
  subs.push(
    Object.assign(vscode.window.createTreeView('pepe.slots', { treeDataProvider: slots, showCollapseAll: true }), {
      message: 'A slot is one job (memory, web search, sandbox…) a plugin may take over from the built-in.',
    }),
    vscode.window.createTreeView('pepe.routes', { treeDataProvider: routes, dragAndDropController: routes, showCollapseAll: true }),
    vscode.window.createTreeView('pepe.agents', { treeDataProvider: agents }),
  );

  const status = new PepeStatusBar(host, active);
  subs.push(status);
  const rerender = () => {
    slots.refresh();
    routes.refresh();
    agents.refresh();
    void status.update();
  };
  subs.push(host.onDidChange(rerender), active.onDidChange(rerender));

  subs.push(
    ...registerCommands(ctx, loadCore),
    vscode.commands.registerCommand('pepe.log.show', () => log.show()),
    vscode.commands.registerCommand('pepe.refresh', () => host.reload()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('pepe.home')) host.reset();
      else if (e.affectsConfiguration('pepe.project') || e.affectsConfiguration('pepe.defaultAgent')) rerender();
    }),
    // A workspace's own pepe.home counts only once the workspace is trusted (package.json
    // restrictedConfigurations), so granting trust may change which PEPE_HOME applies.
    vscode.workspace.onDidGrantWorkspaceTrust(() => host.reset()),
  );

  // Heartbeats need the core; it is built soon after start-up only when some agent has one.
  const heartbeatProbe = setTimeout(() => {
    if (configMentionsHeartbeat(pepeHome() ?? process.env.PEPE_HOME ?? join(homedir(), '.pepe'))) void host.get().catch(() => undefined);
  }, 3000);
  subs.push({ dispose: () => clearTimeout(heartbeatProbe) });

  const activationMs = performance.now() - started;
  log.info(`Pepe activated in ${activationMs.toFixed(1)} ms (PEPE_HOME: ${pepeHome() ?? process.env.PEPE_HOME ?? join(homedir(), '.pepe')})`);
  const api: PepeExtensionApi & { testing?: PepeTestingApi } = {
    version: String(context.extension.packageJSON.version),
    activationMs,
    registerSlotOccupant: (occupant: SlotOccupant) => {
      const registration = occupants.add(occupant, host.current);
      subs.push(registration);
      return registration;
    },
  };
  if (context.extensionMode !== vscode.ExtensionMode.Production) {
    api.testing = {
      host,
      trees: { slots, routes, agents },
      mcp: mcp.testing,
      tasks: tasks.testing,
      terminalText: (agent) => terminals.textOf(agent),
      simulateTrust: (trusted) => {
        trust.simulate(trusted);
        host.reset(); // the core is built with the workspace's trust
      },
    };
  }
  return api;
}

export function deactivate(): void {
  // Everything is in context.subscriptions; VS Code disposes it (host → Pepe → plugin threads).
}

/** `pepe.home` (user/machine level only in untrusted workspaces), `~` expanded; undefined: $PEPE_HOME or ~/.pepe. */
function pepeHome(): string | undefined {
  const configured = vscode.workspace.getConfiguration('pepe').get<string>('home')?.trim();
  if (!configured) return undefined;
  return configured === '~' ? homedir() : configured.startsWith('~/') ? join(homedir(), configured.slice(2)) : configured;
}

/** A cheap look at config.json (no parsing, no core): does any agent have a heartbeat? */
function configMentionsHeartbeat(home: string): boolean {
  try {
    return /"heartbeat"\s*:/.test(readFileSync(join(home, 'config.json'), 'utf8'));
  } catch {
    return false;
  }
}

function workspaceFolder(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? homedir();
}
