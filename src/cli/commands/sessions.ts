import type { Command } from 'commander';
import { json, table } from '../format.js';
import type { CliContext } from '../context.js';

export function registerSessionCommands(program: Command, ctx: CliContext): void {
  const sessions = program.command('sessions').description('conversation transcripts in $PEPE_HOME/sessions');

  sessions
    .command('list')
    .description('sessions, most recent first')
    .argument('[agent]')
    .option('--json', 'machine-readable output')
    .action(async (agent: string | undefined, opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      const list = pepe.sessions.list(agent);
      if (opts.json) return ctx.out(json(list));
      if (!list.length) return ctx.out('no sessions');
      ctx.out(table(['SESSION', 'AGENT', 'TITLE', 'MESSAGES', 'UPDATED'], list.map((s) => [s.id, s.agent, s.title, s.messages, s.updatedAt.replace('T', ' ').slice(0, 19)])));
    });

  sessions
    .command('rename')
    .argument('<agent>')
    .argument('<id>')
    .argument('<title>')
    .action(async (agent: string, id: string, title: string) => {
      const pepe = await ctx.pepe();
      pepe.sessions.rename(agent, id, title);
      ctx.out(`renamed ${id}`);
    });

  sessions
    .command('delete')
    .argument('<agent>')
    .argument('<id>')
    .action(async (agent: string, id: string) => {
      const pepe = await ctx.pepe();
      pepe.sessions.delete(agent, id);
      ctx.out(`deleted ${id}`);
    });
}
