import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentConfig, PepeConfig } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import { DEFAULT_MAX_RESULT_BYTES, DEFAULT_TIMEOUT_MS, McpServerConfig, rawCredentialWarning, rawCredentials, referencedVariables } from '../config/mcp-servers.js';
import { addServer, grantAgent, removeServer } from './edits.js';
import { HOST_TOOL_ENTRY, hostTool, type HostToolSource } from './host-tools.js';
import { McpCallError, McpConnection, type ConnectionDeps, type McpState, type McpToolInfo } from './connection.js';
import { annotationNotes, MCP_PREFIX, mcpTool, mcpToolName, parseMcpToolName, type McpTool } from './tool-adapter.js';
import { compareCodeUnits } from '../code-unit-order.js';

export interface McpCheck {
  name: string;
  ok: boolean;
  error?: string;
  tools: McpToolInfo[];
  ms: number;
  /** A raw credential in the configuration: it must be revoked. */
  warnings: string[];
}

/** What is said instead of starting a server in a workspace that is not trusted. */
export const MCP_RESTRICTED = 'Restricted Mode: trust the folder to use MCP servers';

export interface McpManagerDeps extends ConnectionDeps {
  /** False in Restricted Mode: no server is started at all (a local one runs code). Unset: trusted. */
  trusted?: () => boolean;
  /** Applies an edit to the raw configuration under the store's lock, then reloads. */
  edit?: <T>(mutate: (raw: Record<string, unknown>) => T) => Promise<T>;
  /** Where servers not from config.json come from (VS Code's or Claude Code's files), by name. */
  sources?: () => Record<string, string>;
  /** A workspace's servers not accepted yet: listed, never started. */
  awaiting?: () => { name: string; source: string; status: 'awaiting' | 'changed' }[];
}

export interface McpServerRow {
  name: string;
  kind: 'local' | 'remote';
  target: string;
  credentials: { variable: string; set: boolean }[];
  rawCredentials: string[];
  warnings: string[];
  network: boolean;
  approveReadOnly: boolean;
  disabled: boolean;
  agents: string[];
  status: McpServerStatus;
  invalid?: string;
  /** "config.json", or the file it came from. */
  source: string;
  /** A workspace's server that waits for the person's acceptance (it does not start). */
  awaiting?: 'awaiting' | 'changed';
}

export interface McpToolRow {
  name: string;
  tool: string;
  description: string;
  annotations: string[];
  inputSchema: Record<string, unknown>;
}

export type ServerEntry = { ok: true; server: McpServerConfig } | { ok: false; invalid: string };

export interface McpServerStatus {
  name: string;
  kind: 'local' | 'remote';
  state: McpState | 'not_started';
  restarts: number;
  lastError: string | null;
  pid: number | null;
}

/** The MCP tools one agent may use, and what went wrong getting them (the turn goes on without those). */
export interface AgentMcpTools {
  tools: McpTool[];
  problems: string[];
}

/**
 * Every configured MCP server's connection, made on first use and kept across turns. A changed
 * server entry gets a fresh connection (the old one is stopped); a removed one is stopped.
 */
export class McpManager {
  private readonly connections = new Map<string, { key: string; conn: McpConnection }>();
  private disposed = false;
  private hostTools: HostToolSource | null = null;

  /** The editor's own tools (VS Code's `vscode.lm.tools`), when Pepe runs inside it. */
  setHostTools(source: HostToolSource | null): void {
    this.hostTools = source;
  }

  /** The names of the editor's tools an agent may be granted (`vscode:<name>`); empty outside the editor. */
  hostToolNames(): string[] {
    return this.hostTools?.list().map((t) => t.name) ?? [];
  }

  constructor(private readonly deps: McpManagerDeps) {}

  // ---- configuration (through the locked store) ----

  /** Adds a server (and lets `agents` use it); returns it with the warnings to show. */
  async add(name: string, server: unknown, options: { replace?: boolean; agents?: readonly string[] } = {}): Promise<{ server: McpServerConfig; warnings: string[]; unsetVariables: string[] }> {
    const saved = await this.edit((raw) => {
      const s = addServer(raw, name, server, options.replace === true);
      for (const agent of options.agents ?? []) grantAgent(raw, agent, name);
      return s;
    });
    const raw = rawCredentials(saved);
    return { server: saved, warnings: raw.length ? [rawCredentialWarning(name, raw)] : [], unsetVariables: referencedVariables(saved).filter((v) => !this.deps.env[v]) };
  }

  /** Removes a server and every agent's use of it; returns those agents. */
  async remove(name: string): Promise<string[]> {
    const touched = await this.edit((raw) => removeServer(raw, name));
    await this.stop(name);
    return touched;
  }

  /** Lets an agent use a server or one of its tools; false when it already could. */
  grant(agent: string, entry: string): Promise<boolean> {
    return this.edit((raw) => grantAgent(raw, agent, entry));
  }

  /** The configured servers as `pepe mcp list` and the sidebar show them. */
  describe(): McpServerRow[] {
    const config = this.deps.config();
    const rows: McpServerRow[] = [];
    const sources = this.deps.sources?.() ?? {};
    for (const [name, entry] of this.servers(config)) {
      const source = sources[name] ?? 'config.json';
      const agents = Object.entries(config.agents ?? {})
        .filter(([, a]) => ((a as { mcp?: string[] }).mcp ?? []).some((e) => e === name || parseMcpToolName(e)?.server === name))
        .map(([a]) => a);
      const status = this.status().find((s) => s.name === name)!;
      if (!entry.ok) {
        rows.push({ name, kind: 'local', target: '', credentials: [], rawCredentials: [], warnings: [], network: false, approveReadOnly: false, disabled: false, agents, status, invalid: entry.invalid, source });
        continue;
      }
      const s = entry.server;
      const raw = rawCredentials(s);
      rows.push({
        name,
        kind: s.url ? 'remote' : 'local',
        target: s.url ?? [s.command, ...(s.args ?? [])].join(' '),
        credentials: referencedVariables(s).map((variable) => ({ variable, set: !!this.deps.env[variable] })),
        rawCredentials: raw,
        warnings: raw.length ? [rawCredentialWarning(name, raw)] : [],
        network: s.url ? true : s.network === true,
        approveReadOnly: s.approve_read_only === true,
        disabled: s.disabled === true,
        agents,
        status,
        source,
      });
    }
    for (const a of this.deps.awaiting?.() ?? []) {
      if (rows.some((r) => r.name === a.name)) continue;
      const status: McpServerStatus = { name: a.name, kind: 'local', state: 'not_started', restarts: 0, lastError: null, pid: null };
      rows.push({ name: a.name, kind: 'local', target: '', credentials: [], rawCredentials: [], warnings: [], network: false, approveReadOnly: false, disabled: false, agents: [], status, source: a.source, awaiting: a.status });
    }
    return rows;
  }

  /** A server's tools as agents see them (starts it when needed). */
  async toolRows(name: string): Promise<{ check: McpCheck; tools: McpToolRow[] }> {
    const check = await this.check(name);
    const tools = check.tools.map((t) => ({ name: mcpToolName(name, t.name), tool: t.name, description: t.description ?? '', annotations: annotationNotes(t), inputSchema: t.inputSchema as Record<string, unknown> }));
    return { check, tools };
  }

  private async edit<T>(mutate: (raw: Record<string, unknown>) => T): Promise<T> {
    if (!this.deps.edit) throw new Error('this MCP manager cannot change the configuration');
    return this.deps.edit(mutate);
  }

  /** The servers as configured now, each checked on its own (a broken entry does not hide the others). */
  servers(config: PepeConfig = this.deps.config()): Map<string, ServerEntry> {
    const out = new Map<string, ServerEntry>();
    const raw = (config as { mcp_servers?: Record<string, unknown> }).mcp_servers ?? {};
    for (const [name, value] of Object.entries(raw)) {
      const parsed = McpServerConfig.safeParse(value);
      out.set(name, parsed.success ? { ok: true, server: parsed.data } : { ok: false, invalid: parsed.error.issues.map((i) => i.message).join('; ') });
    }
    return out;
  }

  /** In Restricted Mode, what to say instead of starting a server (the sidebar shows it); null when trusted. */
  restriction(): string | null {
    return this.deps.trusted?.() === false ? MCP_RESTRICTED : null;
  }

  connection(name: string, config: PepeConfig = this.deps.config()): McpConnection {
    if (this.disposed) throw new McpCallError('Pepe is shutting down; MCP servers are stopped', 'start');
    // Every start goes through here: fail closed before a connection exists.
    const restricted = this.restriction();
    if (restricted) throw new McpCallError(restricted, 'start');
    const entry = this.servers(config).get(name);
    const waiting = entry ? undefined : this.deps.awaiting?.().find((a) => a.name === name);
    if (waiting) throw new McpCallError(`MCP server "${name}" from ${waiting.source} awaits acceptance and does not start: review it, then pepe trust accept ${name}`, 'start');
    if (!entry) throw new McpCallError(`no MCP server named "${name}" is configured; see pepe mcp list`, 'start');
    if (!entry.ok) throw new McpCallError(`MCP server "${name}" is misconfigured: ${entry.invalid}`, 'start');
    const server = entry.server;
    const key = JSON.stringify(server);
    const held = this.connections.get(name);
    if (held && held.key === key) return held.conn;
    if (held) void held.conn.stop();
    const conn = new McpConnection(name, server, this.deps);
    this.connections.set(name, { key, conn });
    return conn;
  }

  async listTools(name: string, signal?: AbortSignal): Promise<McpToolInfo[]> {
    return this.connection(name).listTools(signal);
  }

  async callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    return this.connection(server).callTool(tool, args, signal);
  }

  /** Notices a server has for the person since they were last taken (a restart after a crash). */
  takeNotices(server: string): string[] {
    return this.connections.get(server)?.conn.takeNotices() ?? [];
  }

  maxResultBytes(server: string): number {
    const s = this.servers().get(server);
    return (s?.ok && s.server.max_result_bytes) || DEFAULT_MAX_RESULT_BYTES;
  }

  /** The tools an agent's `mcp` selection names: whole servers, or `mcp__<server>__<tool>` (a trailing `*` for all). */
  async toolsFor(agentConfig: AgentConfig, signal?: AbortSignal): Promise<AgentMcpTools> {
    const selection = ((agentConfig as { mcp?: string[] }).mcp ?? []).filter((s) => typeof s === 'string');
    const wanted = new Map<string, Set<string> | 'all'>();
    const hostWanted = new Set<string>();
    for (const entry of selection) {
      if (entry.startsWith(HOST_TOOL_ENTRY)) {
        hostWanted.add(entry.slice(HOST_TOOL_ENTRY.length));
        continue;
      }
      const parsed = entry.startsWith(MCP_PREFIX) ? parseMcpToolName(entry) : { server: entry, tool: '*' };
      if (!parsed) continue;
      const have = wanted.get(parsed.server);
      if (parsed.tool === '*' || have === 'all') wanted.set(parsed.server, 'all');
      else wanted.set(parsed.server, new Set([...(have ?? []), `${MCP_PREFIX}${parsed.server}__${parsed.tool}`]));
    }
    const tools: McpTool[] = [];
    const problems: string[] = [];
    const caller = {
      callTool: (s: string, t: string, a: Record<string, unknown>, sig: AbortSignal) => this.callTool(s, t, a, sig),
      maxResultBytes: (s: string) => this.maxResultBytes(s),
      takeNotices: (s: string) => this.takeNotices(s),
    };
    await Promise.all(
      [...wanted].map(async ([server, which]) => {
        try {
          const infos = await this.listTools(server, signal);
          problems.push(...this.takeNotices(server));
          for (const info of infos) {
            const tool = mcpTool(server, info, caller);
            if (!tool) {
              problems.push(`MCP tool "${info.name}" of "${server}" was left out: its name does not fit the 64 characters models accept`);
              continue;
            }
            if (which === 'all' || which.has(tool.name)) tools.push(tool);
          }
        } catch (e) {
          problems.push(e instanceof McpCallError ? e.message : `MCP server "${server}": ${errorMessage(e)}`);
        }
      }),
    );
    if (hostWanted.size > 0) {
      const available = this.hostTools?.list() ?? [];
      for (const want of hostWanted) {
        const info = available.find((t) => t.name === want);
        const tool = info && this.hostTools ? hostTool(info, this.hostTools, { timeoutMs: DEFAULT_TIMEOUT_MS, maxBytes: DEFAULT_MAX_RESULT_BYTES }) : null;
        if (tool) tools.push(tool as unknown as McpTool);
        else problems.push(this.hostTools ? `the VS Code tool "${want}" is not available now` : `the VS Code tool "${want}" is available only inside VS Code`);
      }
    }
    tools.sort((a, b) => compareCodeUnits(a.name, b.name));
    return { tools, problems };
  }

  /**
   * The agent's settings as the barrier reads them: the person's per-server pre-approval of read-only
   * tools joins `auto_approve` (outside content still withdraws it). The annotation alone grants nothing.
   */
  preApproved(agentConfig: AgentConfig, tools: readonly McpTool[]): AgentConfig {
    if (agentConfig.auto_approve === '*') return agentConfig;
    const servers = this.servers();
    const names = tools
      .filter((t) => {
        // The editor's tools carry no MCP facts: never pre-approved here.
        if (!t.mcp) return false;
        const s = servers.get(t.mcp.server);
        return t.mcp.readOnly && s?.ok === true && s.server.approve_read_only === true;
      })
      .map((t) => t.name);
    if (names.length === 0) return agentConfig;
    return { ...agentConfig, auto_approve: [...(agentConfig.auto_approve ?? []), ...names] };
  }

  status(): McpServerStatus[] {
    const out: McpServerStatus[] = [];
    for (const [name, entry] of this.servers()) {
      const held = this.connections.get(name)?.conn;
      const kind = entry.ok && entry.server.url ? 'remote' : 'local';
      if (!entry.ok) out.push({ name, kind, state: 'failed', restarts: 0, lastError: entry.invalid, pid: null });
      else if (!held) out.push({ name, kind, state: 'not_started', restarts: 0, lastError: null, pid: null });
      else out.push({ name, kind, state: held.state, restarts: held.restarts, lastError: held.lastError, pid: held.pid });
    }
    return out;
  }

  /**
   * Starts a server (if it is not running) and lists its tools: what `pepe mcp test`, `pepe mcp tools`
   * and `pepe doctor` report. Never throws: a failure is the answer.
   */
  async check(name: string): Promise<McpCheck> {
    const entry = this.servers().get(name);
    // A check is a person asking now: it tries again even right after a failure.
    if (entry?.ok) this.connections.get(name)?.conn.retryNow();
    const warnings = entry?.ok ? rawCredentials(entry.server).map(() => rawCredentialWarning(name, rawCredentials(entry.server))).slice(0, 1) : [];
    const started = Date.now();
    try {
      const tools = await this.listTools(name);
      return { name, ok: true, tools, ms: Date.now() - started, warnings };
    } catch (e) {
      return { name, ok: false, error: errorMessage(e), tools: [], ms: Date.now() - started, warnings };
    }
  }

  async restart(name: string): Promise<McpToolInfo[]> {
    const conn = this.connection(name);
    await conn.stop();
    conn.retryNow();
    return conn.listTools();
  }

  async stop(name: string): Promise<void> {
    await this.connections.get(name)?.conn.stop();
  }

  /** Stops every server (Pepe exits, the window closes). */
  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.connections.values()].map((c) => c.conn.stop());
    this.connections.clear();
    await Promise.allSettled(all);
  }
}
