import type { Command } from 'commander';
import { parseChatInput } from '../../core/chat-command.js';
import { errorMessage, UsageError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { loadCliCore } from '../core-loader.js';
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
    .option('--untrusted', "leave out every file the workspace supplies (its agent files, MCP entries and hooks)")
    .action(async (first: string, opts: { model?: string; provider?: string; session?: string; untrusted?: boolean }) => {
      const model = explicitModel(opts);
      const { createInterface, TerminalRenderer, TtyPrompter } = await loadCliCore();
      const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: !!process.stdin.isTTY });
      // Iterate from the start: lines piped in while the core loads are buffered, not dropped.
      const lines = rl[Symbol.asyncIterator]();
      const person = !!process.stdin.isTTY;
      const pepe = await ctx.pepe({ prompter: person ? new TtyPrompter(rl, (t) => process.stdout.write(t)) : null, workspace: process.cwd(), untrusted: opts.untrusted === true });
      const canonical = pepe.switchTarget({ agent: first, switchTo: first }).agent;
      if (!canonical) throw new UsageError(`unknown agent "${first}"; see pepe agent list`);
      const renderer = new TerminalRenderer((t) => process.stdout.write(t), (t) => process.stderr.write(t));
      let agent = canonical;
      let sessionId = opts.session;
      let turn: AbortController | null = null;
      // Ctrl+C during a turn cancels the turn; at the prompt it ends the chat.
      rl.on('SIGINT', () => {
        if (turn) turn.abort();
        else rl.close();
      });
      process.on('SIGINT', () => turn?.abort());
      // A broken config.json keeps the last good configuration for the next turn, and says so once.
      let lastProblem = '';
      const reload = async () => {
        try {
          await pepe.reload();
          lastProblem = '';
        } catch (e) {
          const problem = errorMessage(e);
          if (problem !== lastProblem) process.stderr.write(`pepe: ${problem}; keeping the configuration from before\n`);
          lastProblem = problem;
        }
      };
      ctx.out(`chatting with ${agent}. ${HELP}`);
      for (;;) {
        process.stdout.write(`${agent}> `);
        const next = await lines.next();
        if (next.done) break;
        if (!next.value.trim()) continue;
        const input = parseChatInput(next.value);
        if (input.kind === 'exit') break;
        if (input.kind === 'new') {
          sessionId = undefined;
          ctx.out('(new session)');
          continue;
        }
        if (input.kind === 'agent_usage') {
          ctx.out(input.usage);
          continue;
        }
        // The configuration as it is now: agents, routes and slots edited meanwhile apply from this turn.
        await reload();
        if (input.kind === 'agent') {
          // Spec 6.3: the user asked, so no barrier; the new agent starts a fresh session.
          const target = pepe.switchTarget({ agent, switchTo: input.name }).agent;
          if (!target) ctx.out(`no agent "${input.name}"`);
          else {
            agent = target;
            sessionId = undefined;
            ctx.out(`(now talking with ${agent}, new session)`);
          }
          continue;
        }
        const text = input.text.trim();
        turn = new AbortController();
        try {
          const result = await pepe.run({ agent, text, model, sessionId, signal: turn.signal, onEvent: (e) => renderer.handle(e), personPresent: person, metadata: { channel: 'cli-chat' } });
          sessionId = result.sessionId;
          if (result.status === 'cancelled') ctx.out('(stopped)');
          if (result.status === 'error') process.stderr.write(`pepe: ${result.error}\n`);
          if (result.switchTo) {
            // The target may have been removed while the turn ran: then the conversation stays here.
            await reload();
            const next = pepe.switchTarget(result);
            if (next.agent) {
              agent = next.agent;
              sessionId = undefined;
              ctx.out(`(the conversation is handed to ${agent}; new session)`);
            } else ctx.out(`(${next.notice})`);
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
