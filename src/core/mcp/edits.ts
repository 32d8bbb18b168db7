import { UsageError } from '../errors.js';
import { McpServerConfig, McpServerName } from '../config/mcp-servers.js';
import { MCP_PREFIX, parseMcpToolName } from './tool-adapter.js';

/**
 * Edits of the raw configuration document for MCP servers (the store applies them under its lock,
 * so unknown keys survive). Each one validates what it writes and says what is wrong otherwise.
 */

type Raw = Record<string, unknown>;

function servers(raw: Raw): Record<string, unknown> {
  const s = raw.mcp_servers;
  if (s !== undefined && (typeof s !== 'object' || s === null || Array.isArray(s))) throw new UsageError('"mcp_servers" in config.json is not an object; fix it by hand first');
  return (raw.mcp_servers ??= {}) as Record<string, unknown>;
}

export function addServer(raw: Raw, name: string, server: unknown, replace = false): McpServerConfig {
  const n = McpServerName.safeParse(name);
  if (!n.success) throw new UsageError(`MCP server name "${name}": ${n.error.issues[0]!.message}`);
  const parsed = McpServerConfig.safeParse(server);
  if (!parsed.success) throw new UsageError(`MCP server "${name}": ${parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ')}`);
  const all = servers(raw);
  if (all[name] !== undefined && !replace) throw new UsageError(`an MCP server named "${name}" exists already; remove it first, or add with --replace`);
  all[name] = parsed.data;
  return parsed.data;
}

/** Removes the server and every agent's selection of it (a selection naming nothing would mislead). */
export function removeServer(raw: Raw, name: string): string[] {
  const all = servers(raw);
  if (all[name] === undefined) throw new UsageError(`no MCP server named "${name}"; see pepe mcp list`);
  delete all[name];
  const touched: string[] = [];
  for (const [agent, cfg] of Object.entries((raw.agents ?? {}) as Record<string, Raw>)) {
    if (!cfg || !Array.isArray(cfg.mcp)) continue;
    const kept = (cfg.mcp as unknown[]).filter((e) => typeof e !== 'string' || (e !== name && parseMcpToolName(e)?.server !== name));
    if (kept.length !== cfg.mcp.length) {
      cfg.mcp = kept;
      touched.push(agent);
    }
  }
  return touched;
}

/** Lets an agent use a server (every tool) or one tool (`mcp__<server>__<tool>`). */
export function grantAgent(raw: Raw, agent: string, entry: string): boolean {
  const cfg = ((raw.agents ?? {}) as Record<string, Raw>)[agent];
  if (!cfg) throw new UsageError(`unknown agent "${agent}"`);
  // `vscode:<tool>`: a tool the editor provides (checked when a turn starts, where it is known).
  const hostTool = /^vscode:[^\s]+$/.test(entry);
  const server = entry.startsWith(MCP_PREFIX) ? parseMcpToolName(entry)?.server : entry;
  if (!hostTool && (!server || servers(raw)[server] === undefined)) throw new UsageError(`"${entry}" names no configured MCP server; see pepe mcp list`);
  const list = Array.isArray(cfg.mcp) ? (cfg.mcp as string[]) : [];
  if (list.includes(entry)) return false;
  cfg.mcp = [...list, entry];
  return true;
}
