import type { ConfigStore } from './config/store.js';
import type { AgentConfig, PepeConfig } from './config/schema.js';
import { UsageError } from './errors.js';
import { describeGrant, parseEntry } from './permissions/grant-scope.js';
import { revocationMatches, scopeMatches } from './permissions/grant-revocations.js';
import { grantId, readLiveFiles, type LiveGrants, type LiveGrantRow } from './permissions/live-grants.js';
import type { SessionStore } from './runtime/session-store.js';

/**
 * Everything that currently lets a call run unasked (issue 25), in one list: each agent's saved
 * "always" entries (`auto_approve`, "*" included), MCP servers' read-only pre-approval, agents that
 * keep their approvals after outside content came in, and what every live process holds in memory
 * (session grants, the bypass, running tasks' grants); plus each open conversation's taint, which
 * withholds approvals until the person trusts it again. Each entry has a stable ID and says in words
 * what it covers. Revoking edits config.json (under its lock) or writes a revocation line every
 * process reads before its next call, so it holds from the very next call, in every window.
 */

export type GrantKind = 'saved' | 'mcp_read_only' | 'trusts_outside_content' | 'session' | 'task' | 'bypass' | 'taint';

export interface GrantEntry {
  id: string;
  kind: GrantKind;
  /** The agent it belongs to; "*" for an MCP server's pre-approval (every agent that uses it). */
  agent: string;
  /** What it is as written: an auto_approve entry, a server, a command. */
  scope: string;
  /** In words: what it lets run without asking (for taint: what it withholds). */
  covers: string;
  /** Where it lives: config.json, an agent file, or "this process" / "process 1234". */
  source: string;
  sessionId?: string;
  /** When it was given (ISO), for grants held in memory. */
  since?: string;
  /** False: it cannot be revoked here (`how` says what to do instead). */
  revocable: boolean;
  how?: string;
}

export interface GrantControlsDeps {
  store: ConfigStore;
  /** The configuration with agent files merged in (what the runtime uses). */
  config: () => PepeConfig;
  /** Where each agent not in config.json comes from (an agent file). */
  agentSource: (agent: string) => string | null;
  sessions: SessionStore;
  live: LiveGrants;
  /** Reloads the facade's configuration after an edit. */
  reload: () => Promise<unknown>;
}

const CONFIG = 'config.json';

export class GrantControls {
  constructor(private readonly deps: GrantControlsDeps) {}

  /** Every entry now, read again from disk (config.json and every live process's file). */
  async list(filter: { agent?: string } = {}): Promise<GrantEntry[]> {
    const snapshot = await this.deps.store.read();
    const out: GrantEntry[] = [];
    const own = (snapshot.config.agents ?? {}) as Record<string, AgentConfig>;
    const merged = this.deps.config().agents ?? {};
    for (const [agent, cfg] of Object.entries({ ...merged, ...own })) {
      const inConfig = Object.hasOwn(own, agent);
      const source = inConfig ? CONFIG : (this.deps.agentSource(agent) ?? 'an agent file');
      const how = inConfig ? undefined : `it comes from ${source}: edit that file to take it away`;
      const list = cfg.auto_approve === undefined ? [] : cfg.auto_approve === '*' ? ['*'] : cfg.auto_approve;
      for (const entry of list) {
        out.push({ id: grantId('a', agent, entry), kind: 'saved', agent, scope: entry, covers: `saved ("always"): ${describeGrant(entry)}`, source, revocable: inConfig, ...(how ? { how } : {}) });
      }
      if (cfg.trust_untrusted_content === true) {
        out.push({ id: grantId('u', agent), kind: 'trusts_outside_content', agent, scope: 'trust_untrusted_content', covers: "its saved approvals and session grants keep applying after a conversation took in outside content (web pages, other agents' answers, files outside the workspace)", source, revocable: inConfig, ...(how ? { how } : {}) });
      }
    }
    for (const [server, s] of Object.entries(snapshot.config.mcp_servers ?? {})) {
      if (s.approve_read_only !== true) continue;
      out.push({ id: grantId('m', server), kind: 'mcp_read_only', agent: '*', scope: `mcp_servers.${server}.approve_read_only`, covers: `the tools of MCP server ${server} that say they only read run without asking, for every agent that uses the server (the server's own claim)`, source: CONFIG, revocable: true });
    }
    const lives = readLiveFiles(this.deps.live.dir);
    const records = this.deps.live.revocations.current() ?? [];
    const seen = new Set<string>();
    const taintSeen = new Set<string>();
    for (const file of lives) {
      const source = file.pid === process.pid ? 'this process' : `process ${file.pid}`;
      for (const row of file.grants) {
        // A revocation the holder has not applied yet (its next call will): not listed.
        if (records.some((r) => revocationMatches(r, row))) continue;
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        out.push(liveEntry(row, source));
      }
      for (const s of file.sessions) {
        const key = `${s.agent}\u0000${s.sessionId}`;
        if (taintSeen.has(key)) continue;
        taintSeen.add(key);
        const taint = this.taintOf(s.agent, s.sessionId);
        if (!taint) continue;
        out.push({
          id: grantId('x', s.agent, s.sessionId),
          kind: 'taint',
          agent: s.agent,
          scope: `session ${s.sessionId}`,
          covers: `this conversation took in outside content (${taint.join(', ')}): saved approvals, session grants and harmless commands ask again until you trust it`,
          source,
          sessionId: s.sessionId,
          revocable: false,
          how: `it withholds approvals, it grants none; after reading what came in, trust the conversation again with /trust in the chat or pepe sessions trust ${s.agent} ${s.sessionId}`,
        });
      }
    }
    // An MCP server's pre-approval applies to every agent that uses the server: listed for each.
    return filter.agent === undefined ? out : out.filter((e) => e.agent === filter.agent || e.agent === '*');
  }

  /** Takes one entry away by its ID; returns it. */
  async revoke(id: string): Promise<GrantEntry> {
    const all = await this.list();
    const found = all.filter((e) => e.id === id || (id.length >= 4 && e.id.startsWith(id)));
    if (found.length === 0) throw new UsageError(`no grant with ID ${id}; see pepe grants list`);
    if (found.length > 1) throw new UsageError(`${id} names ${found.length} grants (${found.map((e) => e.id).join(', ')}); give more of the ID`);
    const entry = found[0]!;
    if (!entry.revocable) throw new UsageError(`${entry.id} cannot be revoked here: ${entry.how ?? 'it is not a grant'}`);
    await this.take([entry]);
    return entry;
  }

  /** Every revocable entry of `agent` (with `scope`: a tool, or an entry as listed). */
  async revokeScope(agent: string, scope?: string): Promise<GrantEntry[]> {
    if (!agent) throw new UsageError('name an agent (--agent NAME)');
    const all = await this.list({ agent });
    const picked = all.filter((e) => e.revocable && e.agent === agent && (scope === undefined || entryInScope(e, scope)));
    await this.take(picked, { agent, ...(scope !== undefined ? { scope } : {}) });
    return picked;
  }

  /** Every revocable entry (of one agent, or all of them, MCP pre-approvals included). */
  async clear(agent?: string): Promise<GrantEntry[]> {
    const picked = (await this.list(agent === undefined ? {} : { agent })).filter((e) => e.revocable && (agent === undefined || e.agent === agent));
    await this.take(picked, agent === undefined ? {} : { agent });
    return picked;
  }

  /**
   * Saved entries leave config.json; grants held in memory get a revocation line. `wide` writes
   * one line for a whole agent or scope (it also reaches a grant given meanwhile in a process
   * this listing did not see yet); otherwise one line per ID.
   */
  private async take(entries: readonly GrantEntry[], wide?: { agent?: string; scope?: string }): Promise<void> {
    const fromConfig = entries.filter((e) => e.kind === 'saved' || e.kind === 'mcp_read_only' || e.kind === 'trusts_outside_content');
    if (fromConfig.length) {
      await this.deps.store.update((raw) => {
        for (const e of fromConfig) removeFromConfig(raw, e);
      });
      await this.deps.reload();
    }
    const live = entries.filter((e) => e.kind === 'session' || e.kind === 'task' || e.kind === 'bypass');
    if (wide) this.deps.live.revocations.append(wide);
    else for (const e of live) this.deps.live.revocations.append({ id: e.id });
  }

  private taintOf(agent: string, sessionId: string): string[] | null {
    try {
      if (!this.deps.sessions.exists(agent, sessionId)) return null;
      const t = this.deps.sessions.load(agent, sessionId).taint;
      return t?.sources.length ? t.sources : null;
    } catch {
      return null;
    }
  }
}

function liveEntry(row: LiveGrantRow, source: string): GrantEntry {
  const session = `for the rest of session ${row.sessionId}`;
  let covers: string;
  switch (row.grant) {
    case 'bypass':
      covers = `${session}: every call of ${row.agent} runs without asking (except never-run commands, writes into Pepe's home and changes to files that decide what runs later), until outside content comes in`;
      break;
    case 'exact':
      covers = `${session}: exactly this call again: ${row.entry}`;
      break;
    case 'task':
      covers = `for the rest of the running task (session ${row.sessionId}): ${describeGrant(row.entry)}`;
      break;
    default:
      covers = `${session}: ${describeGrant(row.entry)}`;
  }
  return { id: row.id, kind: row.kind, agent: row.agent, scope: row.entry, covers, source, sessionId: row.sessionId, since: new Date(row.at).toISOString(), revocable: true };
}

/** A scope names a tool (every entry of it) or one entry exactly as listed; "*" the catch-all entries. */
function entryInScope(e: GrantEntry, scope: string): boolean {
  if (e.kind === 'saved') return e.scope === scope || parseEntry(e.scope).tool === scope;
  if (e.kind === 'session' || e.kind === 'task' || e.kind === 'bypass') {
    const tool = e.kind === 'bypass' ? undefined : (e.scope.match(/^[^\s:]+/)?.[0] ?? e.scope);
    return scopeMatches(scope, { ...(tool !== undefined ? { tool } : {}), entry: e.scope });
  }
  return e.scope === scope;
}

function removeFromConfig(raw: Record<string, unknown>, e: GrantEntry): void {
  if (e.kind === 'mcp_read_only') {
    const server = (raw.mcp_servers as Record<string, Record<string, unknown>> | undefined)?.[e.scope.replace(/^mcp_servers\./, '').replace(/\.approve_read_only$/, '')];
    if (server) delete server.approve_read_only;
    return;
  }
  const cfg = (raw.agents as Record<string, Record<string, unknown>> | undefined)?.[e.agent];
  if (!cfg) return;
  if (e.kind === 'trusts_outside_content') {
    delete cfg.trust_untrusted_content;
    return;
  }
  const list = cfg.auto_approve;
  if (list === '*' && e.scope === '*') delete cfg.auto_approve;
  else if (Array.isArray(list)) cfg.auto_approve = list.filter((x) => x !== e.scope);
}
