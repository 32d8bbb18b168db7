import type { Command } from 'commander';
import { inertJson, visibleLine } from '../../core/permissions/display.js';
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
      // Outside-content sources name what a model or a web page chose (file paths, servers): printed inert.
      if (opts.json) return ctx.out(inertJson(json(list)));
      if (!list.length) return ctx.out('no sessions');
      const outside = (s: { outsideContent: string[] }) => (s.outsideContent.length ? `yes: ${visibleLine(s.outsideContent.join(', '))}` : '-');
      ctx.out(table(['SESSION', 'AGENT', 'TITLE', 'MESSAGES', 'UPDATED', 'OUTSIDE CONTENT'], list.map((s) => [s.id, s.agent, s.title, s.messages, s.updatedAt.replace('T', ' ').slice(0, 19), outside(s)])));
    });

  sessions
    .command('trust')
    .description('I have read it: trust this conversation again after outside content (pre-approved calls run unasked again from its next turn)')
    .argument('<agent>')
    .argument('<id>')
    .action(async (agent: string, id: string) => {
      const pepe = await ctx.pepe();
      const { wasTainted } = pepe.trustSession(agent, id);
      ctx.out(wasTainted ? `trusted ${id} again: pre-approved calls run unasked from its next turn` : `${id} has taken in no outside content; nothing to trust`);
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
