import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { inertJson, visibleLine } from '../../core/display.js';
import { UsageError } from '../../core/errors.js';
import { json, table } from '../format.js';
import type { CliContext } from '../context.js';
import { loadCliExtras } from '../core-loader.js';

type Pepe = Awaited<ReturnType<CliContext['pepe']>>;

/** `ID`, or `AGENT ID` as the older commands took it: the session's agent and id. */
function findSession(pepe: Pepe, first: string, second?: string): { agent: string; id: string } {
  if (second !== undefined) {
    if (!pepe.sessionExists(first, second)) throw new UsageError(`no session ${second} for agent ${first}; see pepe sessions list`);
    return { agent: first, id: second };
  }
  const found = pepe.sessionList().filter((s) => s.id === first);
  if (!found.length) throw new UsageError(`no session ${first}; see pepe sessions list`);
  if (found.length > 1) throw new UsageError(`${found.length} agents have a session ${first} (${found.map((s) => s.agent).join(', ')}); name the agent: pepe sessions … AGENT ${first}`);
  return { agent: found[0]!.agent, id: first };
}

export function registerSessionCommands(program: Command, ctx: CliContext): void {
  const sessions = program.command('sessions').description('conversation transcripts in $PEPE_HOME/sessions: list, search, show, export, rename, remove');

  sessions
    .command('list')
    .description('sessions, most recent first, with their titles')
    .argument('[agent]')
    .option('--search <text>', 'only sessions whose title, agent, id or messages contain every word')
    .option('--json', 'machine-readable output')
    .action(async (agent: string | undefined, opts: { json?: boolean; search?: string }) => {
      const pepe = await ctx.pepe();
      let list = pepe.sessionList(agent);
      if (opts.search) {
        const { sessionMatches } = await loadCliExtras();
        list = list.filter((s) => sessionMatches(pepe.sessionLoad(s.agent, s.id, { keep: false }), opts.search!));
      }
      // Outside-content sources name what a model or a web page chose (file paths, servers): printed inert.
      if (opts.json) return ctx.out(inertJson(json(list)));
      if (!list.length) return ctx.out(opts.search ? 'no session matches' : 'no sessions');
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
    .command('show')
    .description('a session as Markdown (what export writes), to standard output')
    .argument('<id-or-agent>')
    .argument('[id]')
    .action(async (first: string, second: string | undefined) => {
      const pepe = await ctx.pepe();
      const { agent, id } = findSession(pepe, first, second);
      const { sessionMarkdown } = await loadCliExtras();
      const s = pepe.sessionLoad(agent, id);
      ctx.out(sessionMarkdown(s.info, s.messages));
    });

  sessions
    .command('export')
    .description('a session as Markdown, to standard output or to a file')
    .argument('<id-or-agent>')
    .argument('[id]')
    .option('-o, --output <file>', 'write it to this file instead')
    .action(async (first: string, second: string | undefined, opts: { output?: string }) => {
      const pepe = await ctx.pepe();
      const { agent, id } = findSession(pepe, first, second);
      const { sessionMarkdown } = await loadCliExtras();
      const s = pepe.sessionLoad(agent, id);
      const text = sessionMarkdown(s.info, s.messages);
      if (!opts.output) return ctx.out(text);
      // Never over an existing file by surprise: the person names a new one or removes the old.
      try {
        writeFileSync(opts.output, text, { flag: 'wx' });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${opts.output} exists; name another file or remove it first`);
        throw e;
      }
      ctx.out(`exported ${id} to ${opts.output}`);
    });

  sessions
    .command('rename')
    .argument('<agent>')
    .argument('<id>')
    .argument('<title>')
    .action(async (agent: string, id: string, title: string) => {
      const pepe = await ctx.pepe();
      if (!title.trim()) throw new UsageError('a title cannot be empty');
      pepe.sessionRename(agent, id, title);
      ctx.out(`renamed ${id}`);
    });

  sessions
    .command('rm')
    .alias('delete')
    .description('remove a session (its transcript)')
    .argument('<id-or-agent>')
    .argument('[id]')
    .action(async (first: string, second: string | undefined) => {
      const pepe = await ctx.pepe();
      const { agent, id } = findSession(pepe, first, second);
      pepe.sessionDelete(agent, id);
      ctx.out(`deleted ${id}`);
    });
}
