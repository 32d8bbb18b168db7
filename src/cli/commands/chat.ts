import type { Command } from 'commander';
import { parseChatInput } from '../../core/chat-command.js';
import { errorMessage, UsageError } from '../../core/errors.js';
import { visible, visibleLine } from '../../core/display.js';
import type { TurnEvent } from '../../core/events.js';
import type { CliContext } from '../context.js';
import { promptLines } from '../../core/interop/prompts.js';
import { expandedText, explicitModel, globalFlags } from './run.js';
import { stderr, stdout, useStreams } from '../stdio.js';
import { createInterface } from 'node:readline/promises';
import { loadCliExtras } from '../core-loader.js';
import { TerminalRenderer } from '../render.js';

const HELP = 'commands: /agent NAME (hand the conversation to NAME), /new (new session), /trust (trust this conversation again after outside content), /plan (only tools that read run; the agent answers with a plan), /act (back to acting), /start [AGENT] (carry out the last plan), /help (commands and prompts), /exit; /name args uses a prompt file; Ctrl+C stops a running turn';

/** Shown in the prompt while the conversation holds outside content (pre-approvals paused). */
export const TAINT_MARK = ' [outside content: asks first; /trust]';

export function registerChatCommand(program: Command, ctx: CliContext): void {
  program
    .command('chat')
    .description('talk with an agent; approvals are asked here; Ctrl+C stops the turn, not the program')
    .argument('<agent>')
    .option('--model <id>', 'use this model, bypassing the model_select slot')
    .option('--provider <name>', '"fake": the built-in mock model')
    .option('--session <id>', 'continue this session')
    .option('--verbose', 'also name (on stderr) the instruction files and prompt files used')
    .option('--untrusted', "leave the folder's instruction, skill and prompt files out, run nothing from it, write nothing (VS Code's Restricted Mode)")
    .option('--plan', 'start in plan mode: only tools that read run, the agent answers with a plan (/act leaves it)')
    .action(async (first: string, opts: { model?: string; provider?: string; session?: string; plan?: boolean; untrusted?: boolean }, cmd: Command) => {
      const { verbose } = globalFlags(cmd);
      const model = explicitModel(opts);
      const { TtyPrompter, statusLine, planHandover } = await loadCliExtras();
      // readline writes to process.stdout itself: every write goes through the streams from here (stdio.ts).
      useStreams();
      const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: !!process.stdin.isTTY });
      // Iterate from the start: lines piped in while the core loads are buffered, not dropped.
      const lines = rl[Symbol.asyncIterator]();
      const person = !!process.stdin.isTTY;
      const pepe = await ctx.pepe({ prompter: person ? new TtyPrompter(rl, stdout) : null, workspace: process.cwd(), untrusted: opts.untrusted === true });
      const canonical = pepe.switchTarget({ agent: first, switchTo: first }).agent;
      if (!canonical) throw new UsageError(`unknown agent "${first}"; see pepe agent list`);
      const renderer = new TerminalRenderer(stdout, stderr, { verbose });
      let agent = canonical;
      let sessionId = opts.session;
      // Outside content in this conversation (spec 5.3): shown in the prompt until the person types /trust.
      let tainted = sessionId ? (pepe.sessionLoad(agent, sessionId).taint?.sources.length ?? 0) > 0 : false;
      let turn: AbortController | null = null;
      // Plan mode: the person's choice (/plan, /act, --plan); undefined leaves it to the agent's plan_mode.
      let planMode: boolean | undefined = opts.plan ? true : undefined;
      // The last answer given in plan mode: what /start hands over.
      let lastPlan: string | null = null;
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
          if (problem !== lastProblem) stderr(`pepe: ${problem}; keeping the configuration from before\n`);
          lastProblem = problem;
        }
      };
      ctx.out(`chatting with ${agent}. ${HELP}`);
      for (;;) {
        stdout(`${agent}${tainted ? TAINT_MARK : ''}> `);
        const next = await lines.next();
        if (next.done) break;
        if (!next.value.trim()) continue;
        const input = parseChatInput(next.value);
        if (input.kind === 'exit') break;
        if (input.kind === 'new') {
          sessionId = undefined;
          tainted = false;
          ctx.out('(new session)');
          continue;
        }
        if (input.kind === 'trust') {
          // Only the person, typing it here, clears the taint: the model has no way to.
          const had = sessionId ? pepe.trustSession(agent, sessionId).wasTainted : false;
          tainted = false;
          ctx.out(had ? '(trusted again: pre-approved calls run without asking from the next turn)' : '(nothing to trust: this conversation has taken in no outside content)');
          continue;
        }
        if (input.kind === 'agent_usage' || input.kind === 'start_usage') {
          ctx.out(input.usage);
          continue;
        }
        if (input.kind === 'help') {
          const prompts = promptLines(await pepe.promptCatalog());
          ctx.out(`${HELP}\n${prompts.length ? `prompts:\n${prompts.map((l) => `  ${visible(l)}`).join('\n')}` : 'no prompt files (add one as .pepe/prompts/NAME.md or $PEPE_HOME/prompts/NAME.md)'}`);
          continue;
        }
        if (input.kind === 'mode') {
          planMode = input.plan;
          ctx.out(input.plan ? '(plan mode: only tools that read run; the agent answers with a plan. /start carries it out, /act leaves plan mode)' : '(acting: tools run under the usual approvals)');
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
            tainted = false;
            ctx.out(`(now talking with ${agent}, new session)`);
          }
          continue;
        }
        let text: string;
        if (input.kind === 'start') {
          if (lastPlan === null) {
            ctx.out('(no plan to start yet: ask for one in plan mode, /plan)');
            continue;
          }
          const target = input.agent ? pepe.switchTarget({ agent, switchTo: input.agent }).agent : agent;
          if (!target) {
            ctx.out(`no agent "${input.agent}"`);
            continue;
          }
          if (target !== agent) {
            agent = target;
            sessionId = undefined;
            tainted = false;
            ctx.out(`(the plan is handed to ${agent}; new session)`);
          }
          planMode = false;
          text = planHandover(lastPlan);
          lastPlan = null;
          ctx.out('(acting: carrying out the plan)');
        } else text = await expandedText(pepe, input.text.trim(), (line) => verbose && stderr(`ℹ ${line}\n`));
        turn = new AbortController();
        try {
          // The turns of this one (the consulted agents' included), for the status line's "turn" figures.
          const turnIds: string[] = [];
          const onEvent = (e: TurnEvent) => {
            if (e.type === 'turn_start') turnIds.push(e.turnId);
            renderer.handle(e);
            if (e.type === 'taint' && e.path.length === 1 && !tainted) {
              tainted = true;
              stderr(`  ⚠ this conversation took in outside content (${e.sources.map(visibleLine).join(', ')}): pre-approved calls ask first until you type /trust\n`);
            }
          };
          const result = await pepe.run({ agent, text, model, sessionId, signal: turn.signal, onEvent, personPresent: person, metadata: { channel: 'cli-chat' }, ...(planMode !== undefined ? { planMode } : {}) });
          sessionId = result.sessionId;
          tainted = result.tookInOutsideContent;
          ctx.out(`(${statusLine(pepe.conversationFigures(agent, result.sessionId, turnIds))})`);
          if (result.status === 'budget') ctx.out(`(stopped: ${result.content.replace(/^\[|\]$/g, '')})`);
          if (result.planMode && result.status === 'ok' && result.content.trim()) {
            lastPlan = result.content;
            ctx.out('(plan mode: /start carries out this plan, /start AGENT hands it to another agent)');
          }
          if (result.status === 'cancelled') ctx.out('(stopped)');
          if (result.status === 'error') stderr(`pepe: ${result.error}\n`);
          if (result.switchTo) {
            // The target may have been removed while the turn ran: then the conversation stays here.
            await reload();
            const next = pepe.switchTarget(result);
            if (next.agent) {
              agent = next.agent;
              sessionId = undefined;
              tainted = false;
              ctx.out(`(the conversation is handed to ${agent}; new session)`);
            } else ctx.out(`(${next.notice})`);
          }
        } catch (e) {
          stderr(`pepe: ${errorMessage(e)}\n`);
        } finally {
          turn = null;
        }
      }
      rl.close();
    });
}
