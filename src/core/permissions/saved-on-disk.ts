import { readFileSync, statSync } from 'node:fs';
import { MCP_TOOL_PREFIX } from './tool-policy.js';

/**
 * config.json's saved approvals as they are on disk now (issue 25). A turn keeps the configuration
 * it started with (spec 2), but a saved entry revoked meanwhile, from this window or another, must
 * not let the very next call through: the barrier asks this before using an entry. It can only
 * withhold: an entry the turn does not hold is never added. Read again only when the file changed.
 */
export class SavedOnDisk {
  private seen: string | null = null;
  private raw: Record<string, unknown> | null | 'broken' = null;

  constructor(readonly configFile: string) {}

  /**
   * Whether `entry` (from the agent's auto_approve, or an MCP server's read-only pre-approval) still
   * stands. An agent that is not in config.json (a personal agent file) keeps what its file says; a
   * config.json that cannot be read or parsed withholds every entry (fail closed).
   */
  stands(agent: string, entry: string): boolean {
    const raw = this.read();
    if (raw === 'broken') return false;
    const agents = raw?.agents;
    const cfg = isObject(agents) ? agents[agent] : undefined;
    if (!isObject(cfg)) return true;
    const list = cfg.auto_approve;
    if (list === '*') return true;
    if (Array.isArray(list) && list.includes(entry)) return true;
    if (entry.startsWith(MCP_TOOL_PREFIX)) {
      const server = entry.slice(MCP_TOOL_PREFIX.length).split('__')[0] ?? '';
      const servers = raw?.mcp_servers;
      const s = isObject(servers) ? servers[server] : undefined;
      // A server from another tool's file (.vscode/mcp.json) is judged by what the turn holds.
      if (!isObject(s)) return true;
      return s.approve_read_only === true;
    }
    return false;
  }

  private read(): Record<string, unknown> | null | 'broken' {
    let sig: string;
    try {
      const s = statSync(this.configFile);
      sig = `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        this.seen = null;
        return null;
      }
      return 'broken';
    }
    if (sig === this.seen) return this.raw;
    try {
      const text = readFileSync(this.configFile, 'utf8');
      const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
      this.raw = isObject(parsed) ? parsed : 'broken';
    } catch {
      this.raw = 'broken';
    }
    this.seen = sig;
    return this.raw;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
