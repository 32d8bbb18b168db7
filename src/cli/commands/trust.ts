import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { json, table } from '../format.js';

// Light on purpose (`pepe --help` loads it): only types from the core.

/** A workspace wrote these words: control characters are shown, never sent to the terminal. */
export const inert = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);

const STATUS: Record<string, string> = { accepted: 'accepted', awaiting: 'awaiting acceptance', changed: 'changed: awaiting acceptance' };

export function registerTrustCommands(program: Command, ctx: CliContext): void {
  const trust = program.command('trust').description("what this workspace's files may do: its agent files, MCP entries and hooks take effect only once accepted");

  trust
    .command('list')
    .description("the workspace's agent files, MCP servers and hooks, with what each may do and whether it is accepted")
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      const { workspace, items } = pepe.trustList();
      if (opts.json) return ctx.out(json({ workspace, items }));
      if (!workspace) return ctx.out('workspace files are left out here (--untrusted), so nothing from the workspace applies');
      if (!items.length) return ctx.out(`nothing in ${workspace} needs acceptance (no .pepe/agents, .github/agents, .claude/agents, .vscode/mcp.json, .mcp.json or .pepe/hooks.json)`);
      ctx.out(table(['NAME', 'KIND', 'FILE', 'STATUS', 'MAY'], items.map((it) => [inert(it.name), it.kind, inert(it.file), STATUS[it.status] ?? it.status, inert(it.power)])));
      for (const it of items) for (const p of it.problems) ctx.out(`problem: ${inert(p)}`);
      if (items.some((it) => it.status !== 'accepted')) ctx.out('review each file, then: pepe trust accept NAME|PATH (or --all)');
    });

  trust
    .command('accept')
    .description('accept an item (by name, or every item of a file by its path) as it is now; a later change waits for acceptance again')
    .argument('[target]', 'an agent or MCP server name, or a file path')
    .option('--all', "accept every item of this workspace")
    .option('--json', 'machine-readable output')
    .action(async (target: string | undefined, opts: { all?: boolean; json?: boolean }) => {
      if (!target === !opts.all) throw new UsageError('name what to accept (pepe trust accept NAME|PATH) or pass --all');
      const pepe = await ctx.pepe();
      const done = await pepe.trustAccept(opts.all ? { all: true } : target!);
      if (opts.json) return ctx.out(json({ accepted: done.map((it) => it.id) }));
      if (!done.length) return ctx.out('already accepted as it is now');
      for (const it of done) ctx.out(`accepted ${it.kind} ${inert(it.name)} (${inert(it.file)}): ${inert(it.power)}`);
      ctx.out('approvals are still asked as usual: accepting grants no approval');
    });

  trust
    .command('revoke')
    .description('withdraw an acceptance: the item stops applying until accepted again')
    .argument('<target>', 'an agent or MCP server name, or a file path')
    .option('--json', 'machine-readable output')
    .action(async (target: string, opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      const gone = await pepe.trustRevoke(target);
      if (opts.json) return ctx.out(json({ revoked: gone }));
      ctx.out(gone.length ? `revoked ${gone.join(', ')}` : `${target} was not accepted`);
    });
}
