import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { errorMessage } from '../../core/errors.js';
import type { CliContext } from '../main.js';
import { TerminalRenderer } from '../render.js';
import { TtyPrompter } from '../tty-prompter.js';
import { explicitModel } from './run.js';

const HELP = 'commands: /agent NAME (hand the conversation to NAME), /new (new session), /exit; Ctrl+C stops a running turn';

export function registerChatCommand(program: Command, ctx: CliContext): void {
  program
    .command('chat')
    .description('talk with an agent; approvals are asked here; Ctrl+C stops the turn, not the program')
    .argument('<agent>')
    .option('--model <id>', 'use this model, bypassing the model_select slot')
    .option('--provider <name>', '"fake": the built-in mock model')
    .option('--session <id>', 'continue this session')
    .action(async (first: string, opts: { model?: string; provider?: string; session?: string }) => {
      const model = explicitModel(opts);
      const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: !!process.stdin.isTTY });
      const person = !!process.stdin.isTTY;
      const pepe = await ctx.pepe({ prompter: person ? new TtyPrompter(rl, (t) => process.stdout.write(t)) : null, workspace: process.cwd() });
      if (!pepe.config.agents?.[first]) throw new (await import('../../core/errors.js')).UsageError(`unknown agent "${first}"; see pepe agent list`);
      const renderer = new TerminalRenderer((t) => process.stdout.write(t), (t) => process.stderr.write(t));
      let agent = first;
      let sessionId = opts.session;
      let turn: AbortController | null = null;
      // Ctrl+C during a turn cancels the turn; at the prompt it ends the chat.
      rl.on('SIGINT', () => {
        if (turn) turn.abort();
        else rl.close();
      });
      process.on('SIGINT', () => turn?.abort());
      ctx.out(`chatting with ${agent}. ${HELP}`);
      const lines = rl[Symbol.asyncIterator]();
      for (;;) {
        process.stdout.write(`${agent}> `);
        const next = await lines.next();
        if (next.done) break;
        const text = next.value.trim();
        if (!text) continue;
        if (text === '/exit' || text === '/quit') break;
        if (text === '/new') {
          sessionId = undefined;
          ctx.out('(new session)');
          continue;
        }
        const switchTo = /^\/agent\s+(\S+)$/.exec(text)?.[1];
        if (switchTo) {
          // Spec 6.3: the user asked, so no barrier; the new agent starts a fresh session.
          if (!pepe.config.agents?.[switchTo]) ctx.out(`no agent "${switchTo}"`);
          else {
            agent = switchTo;
            sessionId = undefined;
            ctx.out(`(now talking with ${agent}, new session)`);
          }
          continue;
        }
        turn = new AbortController();
        try {
          const result = await pepe.run({ agent, text, model, sessionId, signal: turn.signal, onEvent: (e) => renderer.handle(e), personPresent: person });
          sessionId = result.sessionId;
          if (result.status === 'cancelled') ctx.out('(stopped)');
          if (result.status === 'error') process.stderr.write(`pepe: ${result.error}\n`);
          if (result.switchTo) {
            agent = result.switchTo;
            sessionId = undefined;
            ctx.out(`(the conversation is handed to ${agent}; new session)`);
          }
        } catch (e) {
          process.stderr.write(`pepe: ${errorMessage(e)}\n`);
        } finally {
          turn = null;
        }
      }
      rl.close();
    });
}
