import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentConfig, PepeConfig } from '../config/schema.js';
import type { McpServerConfig } from '../config/mcp-servers.js';
import { formatProblem, type Problem } from '../cores/problems.js';
import { discoverAgentFiles, type AgentFile } from './agent-files.js';
import { discoverExternalMcp, EXTERNAL_ORIGIN_LABELS, type ExternalMcpServer } from './external-mcp.js';
import { hookEntries, HooksFile, type HookEntry } from '../config/hooks.js';
import { contentHash, type TrustStore } from './trust-store.js';
import { parseJsonc } from './jsonc.js';

/**
 * Everything Pepe reads beside config.json that carries power (issue 24): agent files, MCP
 * servers from VS Code's and Claude Code's files, and hooks. Personal ones apply as they are;
 * a workspace's apply only once the person accepted exactly that content (the trust store), and
 * never where the workspace is not trusted. config.json wins every name conflict, then the
 * person's home files, then the workspace; the loser is reported.
 */

export type TrustStatus = 'accepted' | 'awaiting' | 'changed';

/** One workspace item that needs the person's acceptance. */
export interface WorkspaceItem {
  /** `agent:<name>`, `mcp:<name>` or `hooks:.pepe/hooks.json`. */
  id: string;
  kind: 'agent' | 'mcp' | 'hooks';
  name: string;
  /** The file, relative to the workspace. */
  file: string;
  hash: string;
  status: TrustStatus;
  /** What accepting it lets it do, in words. */
  power: string;
  /** Problems that keep it from loading even once accepted. */
  problems: string[];
}

export interface AgentSource {
  name: string;
  /** 'config.json', '$PEPE_HOME/agents/x.md', '.pepe/agents/x.md', … */
  source: string;
  origin: 'config' | 'home' | 'workspace';
  status: 'loaded' | 'awaiting' | 'changed' | 'invalid' | 'shadowed';
  description: string | null;
}

export interface Interop {
  /** The workspace's real path (the trust store's key), or null when workspace files are left out. */
  workspace: string | null;
  agentFiles: AgentFile[];
  mcp: ExternalMcpServer[];
  items: WorkspaceItem[];
  agents: AgentSource[];
  /** Agents and servers that apply (added to config.json's, which wins). */
  overlay: { agents: Record<string, AgentConfig>; mcp_servers: Record<string, McpServerConfig>; mcpSources: Record<string, string> };
  hooks: HookEntry[];
  /** Lines for `pepe doctor`, `pepe agent list` and the run: file problems, conflicts, a broken trust store. */
  problems: string[];
}

export interface InteropOptions {
  /** null: workspace files are left out (Restricted Mode, `--untrusted`). */
  workspace: string | null;
  home: string;
  vscodeUserMcp: string | null;
  config: PepeConfig;
  trust: TrustStore;
}

const HOOKS_FILE = '.pepe/hooks.json';

export async function loadInterop(opts: InteropOptions): Promise<Interop> {
  const problems: string[] = [];
  let workspace: string | null = null;
  if (opts.workspace) {
    try {
      workspace = realpathSync(opts.workspace);
    } catch {
      workspace = null;
    }
  }
  let accepted: Awaited<ReturnType<TrustStore['accepted']>> = {};
  if (workspace) {
    try {
      accepted = await opts.trust.accepted(workspace);
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  const statusOf = (id: string, hash: string): TrustStatus => (accepted[id]?.hash === hash ? 'accepted' : accepted[id] ? 'changed' : 'awaiting');

  const models = new Set(Object.keys(opts.config.models ?? {}));
  const agentFiles = discoverAgentFiles({ workspace, home: opts.home, models });
  const items: WorkspaceItem[] = [];
  const agents: AgentSource[] = Object.keys(opts.config.agents ?? {}).map((name) => ({ name, source: 'config.json', origin: 'config' as const, status: 'loaded' as const, description: null }));
  const overlay: Interop['overlay'] = { agents: {}, mcp_servers: {}, mcpSources: {} };
  const show = (p: Problem) => formatProblem(p, p.file.startsWith(opts.home) ? opts.home : (workspace ?? undefined));

  // Home files before workspace files: the first of a name wins.
  const ordered = [...agentFiles.filter((f) => f.origin === 'home'), ...agentFiles.filter((f) => f.origin === 'workspace')];
  for (const f of ordered) {
    const source = f.origin === 'home' ? `$PEPE_HOME/${f.display}` : f.display;
    for (const w of f.warnings) problems.push(`warning: ${show(w)}`);
    for (const e of f.errors) problems.push(show(e));
    let status: AgentSource['status'] = f.agent ? 'loaded' : 'invalid';
    if (f.origin === 'workspace') {
      const id = `agent:${f.name}`;
      const trust = statusOf(id, f.hash);
      items.push({ id, kind: 'agent', name: f.name, file: f.display, hash: f.hash, status: trust, power: agentPower(f), problems: f.errors.map(show) });
      if (f.agent && trust !== 'accepted') status = trust;
    }
    const winner = agents.find((a) => a.name === f.name && a.status !== 'shadowed' && a.status !== 'invalid');
    if (winner && status !== 'invalid') {
      problems.push(`agent "${f.name}" in ${source} is not used: ${winner.source} defines the same name and comes first (config.json, then $PEPE_HOME/agents, then the workspace)`);
      status = 'shadowed';
    }
    agents.push({ name: f.name, source, origin: f.origin, status, description: f.description });
    if (status === 'loaded' && f.agent) overlay.agents[f.name] = f.agent;
  }

  const mcp = discoverExternalMcp({ workspace, vscodeUserFile: opts.vscodeUserMcp });
  for (const s of mcp) {
    const where = `${s.display} (${EXTERNAL_ORIGIN_LABELS[s.origin]})`;
    for (const w of s.warnings) problems.push(`warning: MCP server "${s.original}" in ${where}: ${w}`);
    for (const e of s.errors) problems.push(`MCP server "${s.original}" in ${where}: ${e}`);
    let ok = !!s.server;
    if (!s.personal && s.name !== '(file)') {
      const id = `mcp:${s.name}`;
      const trust = statusOf(id, s.hash);
      items.push({ id, kind: 'mcp', name: s.name, file: s.display, hash: s.hash, status: trust, power: mcpPower(s), problems: s.errors });
      ok &&= trust === 'accepted';
    }
    if (!ok || !s.server) continue;
    if (opts.config.mcp_servers?.[s.name] || overlay.mcp_servers[s.name]) {
      problems.push(`MCP server "${s.name}" in ${where} is not used: ${opts.config.mcp_servers?.[s.name] ? 'config.json' : overlay.mcpSources[s.name]} defines the same name and comes first`);
      continue;
    }
    overlay.mcp_servers[s.name] = s.server;
    overlay.mcpSources[s.name] = where;
  }

  const hooks = hookEntries(opts.config.hooks as never, 'config.json', true);
  if (workspace) {
    const loaded = readHooksFile(workspace);
    if (loaded) {
      const id = `hooks:${HOOKS_FILE}`;
      const trust = statusOf(id, loaded.hash);
      if (loaded.error) problems.push(`${HOOKS_FILE}: ${loaded.error}`);
      items.push({ id, kind: 'hooks', name: HOOKS_FILE, file: HOOKS_FILE, hash: loaded.hash, status: trust, power: `runs ${loaded.entries.length} command${loaded.entries.length === 1 ? '' : 's'} (confined) on ${[...new Set(loaded.entries.map((h) => h.event))].join(', ') || 'no event'}: ${loaded.entries.map((h) => h.command).join(' | ')}`, problems: loaded.error ? [loaded.error] : [] });
      if (trust === 'accepted') hooks.push(...loaded.entries);
    }
  }
  return { workspace, agentFiles, mcp, items, agents, overlay, hooks, problems };
}

function readHooksFile(workspace: string): { hash: string; entries: HookEntry[]; error?: string } | null {
  let text: string;
  try {
    text = readFileSync(join(workspace, HOOKS_FILE), 'utf8');
  } catch {
    return null;
  }
  const hash = contentHash(text);
  let raw: unknown;
  try {
    raw = parseJsonc(text);
  } catch (e) {
    return { hash, entries: [], error: `not valid JSON: ${(e as Error).message}` };
  }
  const parsed = HooksFile.safeParse(raw);
  if (!parsed.success) return { hash, entries: [], error: parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ') };
  return { hash, entries: hookEntries(parsed.data.hooks, HOOKS_FILE, false) };
}

function agentPower(f: AgentFile): string {
  const a = f.agent;
  if (!a) return 'does not load (see its problems)';
  const parts = [
    `tools: ${a.tools ? a.tools.join(', ') || 'none' : 'every built-in tool'}`,
    ...(a.can_message?.length ? [`may message: ${a.can_message.join(', ')}`] : []),
    ...(a.slots && Object.keys(a.slots).length ? [`slots: ${Object.entries(a.slots).map(([k, v]) => `${k}=${v}`).join(', ')}`] : []),
    ...(a.mcp?.length ? [`MCP: ${a.mcp.join(', ')}`] : []),
    ...(a.model || a.model_chain ? [`model: ${a.model ?? a.model_chain!.join(' → ')}`] : []),
  ];
  return parts.join('; ');
}

function mcpPower(s: ExternalMcpServer): string {
  if (!s.server) return 'does not load (see its problems)';
  return s.server.url ? `connects to ${s.server.url}` : `runs (confined) ${[s.server.command, ...(s.server.args ?? [])].join(' ')}`;
}

/** config.json with the overlay added; config.json's own entries win. */
export function withOverlay(config: PepeConfig, interop: Interop | null): PepeConfig {
  if (!interop) return config;
  const agents = { ...interop.overlay.agents, ...(config.agents ?? {}) };
  const servers = { ...interop.overlay.mcp_servers, ...(config.mcp_servers ?? {}) };
  return {
    ...config,
    ...(Object.keys(agents).length ? { agents } : {}),
    ...(Object.keys(servers).length ? { mcp_servers: servers } : {}),
  };
}
