import type { Command } from 'commander';
import type { GrantEntry } from '../../core/grant-controls.js';
import { UsageError } from '../../core/errors.js';
import { inertJson, visibleLine } from '../../core/display.js';
import { json, printListing, table } from '../format.js';
import type { CliContext } from '../context.js';

const KIND_WORDS: Record<GrantEntry['kind'], string> = {
  saved: 'saved',
  mcp_read_only: 'mcp server',
  trusts_outside_content: 'setting',
  session: 'session',
  task: 'task',
  bypass: 'bypass',
  taint: 'taint',
};

/** `pepe grants …`: everything that lets a call run unasked, and taking it back (issue 25). */
export function registerGrantCommands(program: Command, ctx: CliContext): void {
  const grants = program
    .command('grants')
    .description('what lets calls run without asking (saved "always" entries, session and task grants, bypass, settings), and revoking it');

  grants
    .command('list')
    .description('every entry with its ID and what it covers, in words; open conversations that took in outside content are listed too')
    .option('--agent <name>', 'only this agent (and MCP servers every agent uses)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { agent?: string; json?: boolean }) => {
      const pepe = await ctx.pepe();
      const list = await pepe.grantList(opts.agent !== undefined ? { agent: opts.agent } : {});
      printListing((text) => ctx.out(text), opts.json, list, {
        jsonText: (value) => inertJson(json(value)),
        empty: opts.agent === undefined ? 'nothing lets a call run without asking' : `nothing lets a call of ${visibleLine(opts.agent)} run without asking`,
        table: listTable,
      });
    });

  grants
    .command('revoke')
    .description('take a grant away (from the very next call, in every window): by ID, or every grant of an agent, optionally only for one tool or entry')
    .argument('[id]', 'the ID from pepe grants list (or a unique prefix of at least 4 characters)')
    .argument('[scope]', 'with --agent: a tool (bash) or an entry as listed (bash:network)')
    .option('--agent <name>', 'every grant of this agent (or only SCOPE)')
    .action(async (first: string | undefined, second: string | undefined, opts: { agent?: string }) => {
      const pepe = await ctx.pepe();
      if (opts.agent !== undefined) {
        if (second !== undefined) throw new UsageError('give one SCOPE after --agent NAME');
        const gone = await pepe.grantRevokeScope(opts.agent, first);
        return ctx.out(gone.length ? `revoked ${gone.length}:\n${listTable(gone)}` : `nothing to revoke for ${visibleLine(opts.agent)}${first !== undefined ? ` in ${visibleLine(first)}` : ''}`);
      }
      if (first === undefined) throw new UsageError('name a grant: pepe grants revoke ID, or pepe grants revoke --agent NAME [SCOPE]');
      if (second !== undefined) throw new UsageError('a SCOPE goes with --agent NAME');
      const e = await pepe.grantRevoke(first);
      ctx.out(`revoked ${e.id} (${visibleLine(e.agent)}: ${visibleLine(e.scope)}); from the next call it is asked`);
    });

  grants
    .command('clear')
    .description('take every grant away (of one agent with --agent): saved entries, session and task grants, bypass, settings that keep approvals after outside content')
    .option('--agent <name>', 'only this agent')
    .action(async (opts: { agent?: string }) => {
      const pepe = await ctx.pepe();
      const gone = await pepe.grantClear(opts.agent);
      ctx.out(gone.length ? `revoked ${gone.length}:\n${listTable(gone)}` : 'nothing to revoke');
    });
}

function listTable(list: readonly GrantEntry[]): string {
  return table(
    ['ID', 'KIND', 'AGENT', 'ENTRY', 'WHERE', 'COVERS'],
    list.map((e) => [e.id, KIND_WORDS[e.kind], e.agent === '*' ? 'every agent' : visibleLine(e.agent), visibleLine(e.scope), visibleLine(e.source), visibleLine(e.revocable ? e.covers : `${e.covers} (not revocable here: ${e.how ?? ''})`)]),
  );
}
