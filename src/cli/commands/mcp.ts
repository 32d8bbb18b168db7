import type { Command } from 'commander';
import { launcherNeedsNetwork } from '../../core/config/launcher-network.js';
import { UsageError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { json, table } from '../format.js';
import { inert } from './trust.js';

// Light on purpose (`pepe --help` loads it): only types from the core; the MCP parts load with it.

const collect = (value: string, previous: string[] = []) => [...previous, value];

function pairs(list: string[] | undefined, what: string): Record<string, string> | undefined {
  if (!list?.length) return undefined;
  const out: Record<string, string> = {};
  for (const item of list) {
    const at = item.indexOf(what === 'header' ? ':' : '=');
    const alt = what === 'header' && at < 0 ? item.indexOf('=') : at;
    if (alt <= 0) throw new UsageError(`--${what} "${item}": write it as ${what === 'header' ? 'Name: value' : 'NAME=value'}`);
    out[item.slice(0, alt).trim()] = item.slice(alt + 1).trim();
  }
  return out;
}

function known(rows: { name: string }[], name: string): void {
  if (!rows.some((r) => r.name === name)) throw new UsageError(`no MCP server named "${name}"; see pepe mcp list`);
}

interface AddOptions {
  url?: string;
  header?: string[];
  transport?: 'streamable' | 'sse';
  env?: string[];
  network?: boolean;
  writable?: string[];
  readable?: string[];
  approveReadOnly?: boolean;
  timeoutMs?: string;
  agent?: string[];
  replace?: boolean;
  json?: boolean;
}

export function registerMcpCommands(program: Command, ctx: CliContext): void {
  const mcp = program.command('mcp').description('MCP servers whose tools agents may use (mcp__<server>__<tool>)');

  mcp
    .command('add')
    .description('add a server: a local one (the command after --) or a remote one (--url); credentials as ${ENV_VAR} references')
    .argument('<name>', 'the server name (letters, digits, single - or _)')
    .argument('[command...]', 'a local server: the program and its arguments (put -- before them)')
    .option('--url <url>', 'a remote server (streamable HTTP, falling back to SSE)')
    .option('--header <header>', 'a request header for a remote server, "Name: value" (repeatable)', collect)
    .option('--transport <kind>', 'pin a remote server to "streamable" or "sse"')
    .option('--env <pair>', 'a variable for a local server, NAME=value (repeatable)', collect)
    .option('--network', 'a local server may reach the network (it has none otherwise)')
    .option('--writable <dir>', 'a folder a local server may write (repeatable)', collect)
    .option('--readable <dir>', 'a folder a local server may read that it would not see otherwise (repeatable)', collect)
    .option('--approve-read-only', 'run this server\'s tools that say they only read without asking (outside content still asks)')
    .option('--timeout-ms <ms>', 'cut a tool call off after this long (default 60000)')
    .option('--agent <name>', 'let this agent use the server (repeatable)', collect)
    .option('--replace', 'replace a server of the same name')
    .option('--json', 'machine-readable output')
    .action(async (name: string, command: string[], opts: AddOptions) => {
      if (opts.transport && opts.transport !== 'streamable' && opts.transport !== 'sse') throw new UsageError('--transport is "streamable" or "sse"');
      const server: Record<string, unknown> = opts.url
        ? { url: opts.url, ...(opts.header ? { headers: pairs(opts.header, 'header') } : {}), ...(opts.transport ? { transport: opts.transport } : {}) }
        : {
            ...(command.length ? { command: command[0], ...(command.length > 1 ? { args: command.slice(1) } : {}) } : {}),
            ...(opts.env ? { env: pairs(opts.env, 'env') } : {}),
            ...(opts.network ? { network: true } : {}),
            ...(opts.writable ? { writable: opts.writable } : {}),
            ...(opts.readable ? { readable: opts.readable } : {}),
          };
      if (opts.url && command.length) throw new UsageError('give either --url (a remote server) or a command (a local one), not both');
      if (!opts.url && !command.length) throw new UsageError('give a command for a local server (pepe mcp add NAME --network -- npx -y PACKAGE) or --url for a remote one');
      if (opts.approveReadOnly) server.approve_read_only = true;
      if (opts.timeoutMs !== undefined) {
        const ms = Number(opts.timeoutMs);
        if (!Number.isInteger(ms) || ms <= 0) throw new UsageError('--timeout-ms is a whole number of milliseconds');
        server.timeout_ms = ms;
      }
      const pepe = await ctx.pepe();
      const { server: saved, warnings, unsetVariables } = await pepe.mcpAdd(name, server, { replace: opts.replace === true, agents: opts.agent ?? [] });
      if (opts.json) return ctx.out(json({ added: name, server: saved, agents: opts.agent ?? [], warnings, unsetVariables }));
      ctx.out(`added MCP server ${name}; its tools are named mcp__${name}__<tool>. List them with: pepe mcp tools ${name}`);
      for (const w of warnings) ctx.out(`warning: ${w}`);
      for (const v of unsetVariables) ctx.out(`note: \${${v}} is not set in this environment; export it before the server is used`);
      if (!opts.agent?.length) ctx.out(`no agent uses it yet: pepe mcp grant AGENT ${name}`);
      // The same rule as the editor's setup: a command that downloads what it runs needs the network.
      const fetches = !opts.url && !opts.network ? launcherNeedsNetwork(command) : null;
      if (fetches) ctx.out(`note: ${fetches}, and without --network it cannot; add the server again with --network --replace`);
    });

  mcp
    .command('list')
    .description('configured servers, what credential each refers to, and which agents use it')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      const rows = pepe.mcpDescribe();
      if (opts.json) return ctx.out(json(rows));
      if (!rows.length) return ctx.out('no MCP servers configured; add one with: pepe mcp add NAME -- COMMAND ARGS… (or --url URL)');
      const cred = (r: (typeof rows)[number]) =>
        r.invalid ? `invalid: ${r.invalid}` : r.rawCredentials.length ? 'RAW (revoke it)' : r.credentials.map((c) => `\${${c.variable}}${c.set ? '' : ' (unset)'}`).join(' ') || 'none';
      const kind = (r: (typeof rows)[number]) => (r.awaiting ? (r.awaiting === 'changed' ? 'changed: awaiting acceptance' : 'awaiting acceptance') : r.kind + (r.disabled ? ' (disabled)' : ''));
      ctx.out(table(['NAME', 'KIND', 'TARGET', 'CREDENTIAL', 'AGENTS', 'FROM'], rows.map((r) => [r.name, kind(r), inert(r.target), r.awaiting ? null : cred(r), r.agents.join(',') || null, inert(r.source)])));
      for (const r of rows) for (const w of r.warnings) ctx.out(`warning: ${w}`);
      if (rows.some((r) => r.awaiting)) ctx.out('review the workspace entries awaiting acceptance (pepe trust list), then: pepe trust accept NAME');
    });

  mcp
    .command('tools')
    .description('start a server and list its tools as agents see them')
    .argument('<name>')
    .option('--json', 'machine-readable output')
    .action(async (name: string, opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      known(pepe.mcpDescribe(), name);
      const { check, tools } = await pepe.mcpToolRows(name);
      await pepe.mcpStop(name);
      if (!check.ok) throw new UsageError(check.error ?? `MCP server "${name}" did not list its tools`);
      if (opts.json) return ctx.out(json({ server: name, tools, warnings: check.warnings }));
      ctx.out(table(['TOOL', 'SAYS', 'DESCRIPTION'], tools.map((t) => [t.name, t.annotations.join('; ') || null, t.description.split('\n')[0]!.slice(0, 80)])));
      for (const w of check.warnings) ctx.out(`warning: ${w}`);
    });

  mcp
    .command('test')
    .description('start a server and list its tools; exit 1 when it cannot')
    .argument('<name>')
    .option('--json', 'machine-readable output')
    .action(async (name: string, opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      known(pepe.mcpDescribe(), name);
      const check = await pepe.mcpCheck(name);
      await pepe.mcpStop(name);
      process.exitCode = check.ok ? 0 : 1;
      if (opts.json) return ctx.out(json({ server: name, ok: check.ok, tools: check.tools.length, ms: check.ms, ...(check.error ? { error: check.error } : {}), warnings: check.warnings }));
      ctx.out(check.ok ? `ok: ${name} started and listed ${check.tools.length} tools in ${check.ms} ms` : `failed: ${check.error}`);
      for (const w of check.warnings) ctx.out(`warning: ${w}`);
    });

  mcp
    .command('grant')
    .description('let an agent use a server (every tool) or one tool (mcp__<server>__<tool>)')
    .argument('<agent>')
    .argument('<server-or-tool>')
    .option('--json', 'machine-readable output')
    .action(async (agent: string, entry: string, opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      const added = await pepe.mcpGrant(agent, entry);
      if (opts.json) return ctx.out(json({ agent, granted: entry, changed: added }));
      ctx.out(added ? `${agent} may now use ${entry}; each call is still asked first unless pre-approved` : `${agent} could already use ${entry}`);
    });

  mcp
    .command('remove')
    .description('remove a server (and every agent\'s use of it)')
    .argument('<name>')
    .option('--json', 'machine-readable output')
    .action(async (name: string, opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      const touched = await pepe.mcpRemove(name);
      if (opts.json) return ctx.out(json({ removed: name, agents: touched }));
      ctx.out(`removed MCP server ${name}${touched.length ? `; no longer used by ${touched.join(', ')}` : ''}`);
    });
}
