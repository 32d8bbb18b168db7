import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import type { TurnEvent } from '../../core/runtime/events.js';
import { TurnEventRedactor } from '../../core/secrets/redact-events.js';
import { secretValues } from '../../core/secrets/scrub.js';
import type { CliContext } from '../context.js';
import { loadCliCore } from '../core-loader.js';

interface RunOptions {
  model?: string;
  provider?: string;
  session?: string;
  input: boolean;
  json?: boolean;
  untrusted?: boolean;
}

/** `--provider fake` is an alias of `--model mock` (spec 9.1). */
export function explicitModel(opts: { model?: string; provider?: string }): string | undefined {
  if (opts.provider && opts.provider !== 'fake') throw new UsageError(`unknown --provider "${opts.provider}"; the only one is "fake" (same as --model mock)`);
  if (opts.provider && opts.model) throw new UsageError('use either --model or --provider fake, not both');
  return opts.provider === 'fake' ? 'mock' : opts.model;
}

export function registerRunCommand(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .description('run one turn of an agent and stream its answer')
    .argument('<agent>')
    .argument('<text>')
    .option('--model <id>', 'use this model, bypassing the model_select slot')
    .option('--provider <name>', '"fake": the built-in mock model (same as --model mock)')
    .option('--session <id>', 'continue this session')
    .option('--no-input', 'never ask: gated calls are refused and parked as pending approvals')
    .option('--json', 'print one JSON event per line; the last is turn_end')
    .option('--untrusted', "leave out every file the workspace supplies (its agent files, MCP entries and hooks)")
    .action(async (agent: string, text: string, opts: RunOptions) => {
      const model = explicitModel(opts);
      const core = await loadCliCore();
      // Spec 5.4: without a terminal to ask on, nobody is present.
      const interactive = opts.input && !!process.stdin.isTTY && !opts.json;
      const rl = interactive ? core.createInterface({ input: process.stdin, output: process.stderr }) : null;
      const pepe = await ctx.pepe({ prompter: rl ? new core.TtyPrompter(rl, (t) => process.stderr.write(t)) : null, workspace: process.cwd(), untrusted: opts.untrusted === true });
      const renderer = new core.TerminalRenderer((t) => process.stdout.write(t), (t) => process.stderr.write(t));
      // Spec 8: what is printed (and may be piped on) is masked, a key split across deltas too.
      const redacting = new TurnEventRedactor(secretValues(pepe.env, pepe.config), (e) => (opts.json ? ctx.out(redacting.json(e)) : renderer.handle(e)));
      const onEvent = (e: TurnEvent) => redacting.handle(e);
      const ac = new AbortController();
      const onSigint = () => ac.abort();
      process.on('SIGINT', onSigint);
      try {
        const result = await pepe.run({ agent, text, model, sessionId: opts.session, signal: ac.signal, onEvent, personPresent: interactive, metadata: { channel: 'cli' } }).finally(() => redacting.flush());
        if (!opts.json) {
          if (result.status === 'error') process.stderr.write(`pepe: ${result.error}\n`);
          process.stderr.write(`(session ${result.sessionId}${result.status !== 'ok' ? `, ${result.status}` : ''})\n`);
        }
        process.exitCode = result.status === 'error' || result.status === 'cancelled' ? 1 : 0;
      } finally {
        process.off('SIGINT', onSigint);
        rl?.close();
      }
    });
}
