import type { Command } from 'commander';
import type { Pepe } from '../../core/pepe.js';
import { UsageError } from '../../core/errors.js';
import type { TurnEvent } from '../../core/events.js';
import { Redactor } from '../../core/secrets/redact.js';
import { secretValues } from '../../core/secrets/scrub.js';
import type { CliContext } from '../context.js';
import { isTerminal, stderr, stdout, useStreams } from '../stdio.js';
import { createInterface } from 'node:readline/promises';
import { loadCliExtras } from '../core-loader.js';
import { TerminalRenderer } from '../render.js';

interface RunOptions {
  model?: string;
  provider?: string;
  session?: string;
  input: boolean;
  json?: boolean;
  plan?: boolean;
  untrusted?: boolean;
  image: string[];
}

/** `--provider fake` is an alias of `--model mock` (spec 9.1). */
export function explicitModel(opts: { model?: string; provider?: string }): string | undefined {
  if (opts.provider && opts.provider !== 'fake') throw new UsageError(`unknown --provider "${opts.provider}"; the only one is "fake" (same as --model mock)`);
  if (opts.provider && opts.model) throw new UsageError('use either --model or --provider fake, not both');
  return opts.provider === 'fake' ? 'mock' : opts.model;
}

/**
 * The text a turn is given: `/name args` becomes the prompt file's text (a name no prompt has is
 * sent as typed). A prompt that exists but cannot be used is a usage error: nothing is sent.
 */
export async function expandedText(pepe: Pepe, text: string, say: (line: string) => void): Promise<string> {
  const expansion = await pepe.promptExpand(text);
  if (expansion.kind === 'error') throw new UsageError(expansion.message);
  if (expansion.kind === 'none') return text;
  say(`using the prompt /${expansion.prompt.name} (${expansion.prompt.shownAs})`);
  return expansion.text;
}

/** The global `--verbose` and `--untrusted`, given before or after the command's name. */
export const globalFlags = (cmd: Command): { verbose: boolean; untrusted: boolean } => {
  const all = cmd.optsWithGlobals<{ verbose?: boolean; untrusted?: boolean }>();
  return { verbose: !!all.verbose, untrusted: !!all.untrusted };
};

export function registerRunCommand(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .description('run one turn of an agent and stream its answer')
    .argument('<agent>')
    .argument('<text>', 'the message; "/name args" uses the prompt file name ($PEPE_HOME/prompts/, .pepe/prompts/, .github/prompts/)')
    .option('--model <id>', 'use this model, bypassing the model_select slot')
    .option('--provider <name>', '"fake": the built-in mock model (same as --model mock)')
    .option('--session <id>', 'continue this session')
    .option('--no-input', 'never ask: gated calls are refused and parked as pending approvals')
    .option('--json', 'print one JSON event per line; the last is turn_end')
    .option('--verbose', 'also name (on stderr) the instruction files and prompt file used')
    .option('--untrusted', "leave the folder's instruction, skill and prompt files out, run nothing from it, write nothing (VS Code's Restricted Mode)")
    .option('--image <file>', 'send a picture (PNG, JPEG, GIF or WebP, up to 5 MB) with the message; repeatable; the model must take images', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--plan', 'plan mode: only tools that read run (writes and other commands are refused unasked); the agent answers with a plan')
    .action(async (agent: string, given: string, opts: RunOptions, cmd: Command) => {
      const { verbose } = globalFlags(cmd);
      const model = explicitModel(opts);
      // Read before anything starts: a bad file is a usage error, and nothing is sent.
      const images = opts.image.length ? await (await loadCliExtras()).readImageFiles(opts.image) : [];
      // Spec 5.4: without a terminal to ask on, nobody is present.
      const interactive = opts.input && isTerminal(0) && !opts.json;
      // readline writes to process.stderr itself: every write goes through the streams from here (stdio.ts).
      if (interactive) useStreams();
      const rl = interactive ? createInterface({ input: process.stdin, output: process.stderr }) : null;
      const pepe = await ctx.pepe({ prompter: rl ? new (await loadCliExtras()).TtyPrompter(rl, stderr) : null, workspace: process.cwd(), untrusted: opts.untrusted === true });
      const renderer = new TerminalRenderer(stdout, stderr, { verbose });
      const text = await expandedText(pepe, given, (line) => verbose && !opts.json && stderr(`ℹ ${line}\n`));
      // Spec 8: the core masks the event stream; a JSON line is masked again on its serialised
      // text, where escaping can spell a key anew.
      const redactor = new Redactor(secretValues(pepe.env, pepe.config));
      const onEvent = (e: TurnEvent) => (opts.json ? ctx.out(redactor.json(e)) : renderer.handle(e));
      const ac = new AbortController();
      const onSigint = () => ac.abort();
      process.on('SIGINT', onSigint);
      try {
        const result = await pepe.run({ agent, text, model, sessionId: opts.session, signal: ac.signal, onEvent, personPresent: interactive, metadata: { channel: 'cli' }, ...(images.length ? { images } : {}), ...(opts.plan ? { planMode: true } : {}) });
        if (!opts.json) {
          if (result.status === 'error') stderr(`pepe: ${redactor.text(result.error ?? '')}\n`);
          stderr(`(session ${result.sessionId}${result.status !== 'ok' ? `, ${result.status}` : ''})\n`);
        }
        process.exitCode = result.status === 'error' || result.status === 'cancelled' || result.status === 'budget' ? 1 : 0;
      } finally {
        process.off('SIGINT', onSigint);
        rl?.close();
      }
    });
}
