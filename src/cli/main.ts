import { Command, CommanderError } from 'commander';
import { ConfigError, PepeError, errorMessage } from '../core/errors.js';
import { inertJson } from '../core/display.js';
import type { Pepe } from '../core/pepe.js';
import { registerAgentCommands } from './commands/agent.js';
import { registerApprovalCommands } from './commands/approvals.js';
import { registerGrantCommands } from './commands/grants.js';
import { registerChatCommand } from './commands/chat.js';
import { registerCheckpointCommands } from './commands/checkpoints.js';
import { registerHeartbeatCommand } from './commands/heartbeat.js';
import { registerInitCommand } from './commands/init.js';
import { registerMemoryCommands } from './commands/memory.js';
import { registerMcpCommands } from './commands/mcp.js';
import { registerRunCommand } from './commands/run.js';
import { registerSessionCommands } from './commands/sessions.js';
import { registerUsageCommand } from './commands/usage.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerPluginCommands } from './commands/plugin.js';
import { registerSlotCommands } from './commands/slot.js';
import { registerTaskCommands } from './commands/task.js';
import { registerTrustCommands } from './commands/trust.js';
import type { CliContext } from './context.js';
import { loadCliCore } from './core-loader.js';
import { stderr, stdout } from './stdio.js';

export type { CliContext } from './context.js';

/** package.json's version, set by the build (scripts/cli-bundles.mjs). */
declare const PEPE_VERSION: string | undefined;

/**
 * Terminal-inert text: every control, C1, bidi and other hidden character written as `\uXXXX`
 * (tabs and newlines kept). JSON output stays valid JSON (JSON already escapes C0 controls, so
 * the rest become the same escapes a JSON reader decodes back).
 */
const inertOutput = inertJson;
const writeErr = (text: string) => stderr(inertOutput(text));

/**
 * Each top-level command and what registers it (with its subcommands), in the order `--help` lists
 * them. A command line naming one of them builds that one alone: building all of them is most of
 * what commander costs a command's start-up.
 */
const COMMANDS: readonly (readonly [string, (program: Command, ctx: CliContext) => void])[] = [
  ['slot', registerSlotCommands],
  ['plugin', registerPluginCommands],
  ['agent', registerAgentCommands],
  ['doctor', registerDoctorCommand],
  ['run', registerRunCommand],
  ['chat', registerChatCommand],
  ['approvals', registerApprovalCommands],
  ['grants', registerGrantCommands],
  ['sessions', registerSessionCommands],
  ['usage', registerUsageCommand],
  ['heartbeat', registerHeartbeatCommand],
  ['memory', registerMemoryCommands],
  ['init', registerInitCommand],
  ['checkpoints', registerCheckpointCommands],
  ['mcp', registerMcpCommands],
  ['trust', registerTrustCommands],
  ['task', registerTaskCommands],
];

/** Global options that take a value (the word after them is not the command). */
const VALUE_OPTIONS = new Set(['--home']);

/** The top-level command a command line names, when it names a known one. */
export function commandNamed(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return undefined;
    if (VALUE_OPTIONS.has(word)) i++;
    else if (!word.startsWith('-')) return COMMANDS.some(([name]) => name === word) ? word : undefined;
  }
  return undefined;
}

/** The program; given the command line, with only the command it names (all of them otherwise: help, a mistake). */
export function buildProgram(ctx: CliContext, argv?: readonly string[]): Command {
  const program = new Command('pepe')
    .description('Pepe: a team of AI agents with exclusive slots, routes and a permission barrier.')
    .option('--home <dir>', 'PEPE_HOME to use (default: $PEPE_HOME, then ~/.pepe)')
    .option('--verbose', 'print error details; run and chat also name the instruction files used')
    .option('--untrusted', "treat this folder as untrusted (like VS Code's Restricted Mode): its instruction, skill and prompt files are not read, nothing in it runs, nothing writes")
    .version(typeof PEPE_VERSION === 'string' ? PEPE_VERSION : 'unbuilt', '-V, --version', 'print the version')
    .showHelpAfterError('(run pepe --help for usage)')
    .exitOverride();
  const named = argv && commandNamed(argv);
  for (const [name, register] of COMMANDS) if (!named || name === named) register(program, ctx);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  let pepe: Pepe | undefined;
  let verbose = argv.includes('--verbose');
  let code = 0;
  const ctx: CliContext = {
    pepe: async (options = {}) => {
      const { home, untrusted } = program.opts<{ home?: string; untrusted?: boolean }>();
      if (!pepe) {
        // The CLI trusts the folder it runs in, as VS Code trusts a folder you open, unless told not to.
        const core = await loadCliCore();
        const leaveOut = untrusted === true || options.untrusted === true;
        // The environment as the command started (as the extension host gives its own copy): the
        // core reads it for every transcript line and tool result, and process.env is slow to read
        // whole (each variable is a call into Node), a plain copy is not.
        pepe = await core.createPepe({ vscodeUserMcp: core.cliVscodeUserMcp(process.env), env: { ...process.env }, ...options, home, ...(leaveOut ? { trusted: false, untrusted: true } : {}) });
        warnSetAside(pepe);
      }
      return pepe;
    },
    // Everything a command prints may quote outside text (a diff, an MCP tool's description, a
    // session title, a plugin's error): made inert here, once, for every command.
    out: (text) => stdout(inertOutput(text.endsWith('\n') ? text : `${text}\n`)),
  };
  const program = buildProgram(ctx, argv);
  // Commander's own usage errors (unknown option, missing argument) exit 2 (spec 9.1).
  program.configureOutput({ writeErr: (s) => writeErr(s) });
  try {
    await program.parseAsync(argv, { from: 'user' });
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    verbose ||= !!program.opts<{ verbose?: boolean }>().verbose;
    code = report(e, verbose);
  } finally {
    pepe?.dispose();
  }
  return code;
}

/** A malformed section does not stop the command; one stderr line per section says what to fix. */
function warnSetAside(pepe: Pepe): void {
  for (const aside of pepe.configSetAside()) {
    writeErr(`pepe: warning: config.json: section "${aside.section}" is set aside (it takes its defaults): ${aside.problems.join('; ')}\n`);
  }
  // A misspelt or guessed key (an agent's "mcp_servers" for "mcp") is kept in the file but does nothing: say so.
  for (const key of pepe.configSnapshot.unknown) {
    writeErr(`pepe: warning: config.json: unknown key "${key}" does nothing (kept as is; check its spelling)\n`);
  }
}

function report(e: unknown, verbose: boolean): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') return 0;
    return 2;
  }
  if (e instanceof ConfigError && e.problems.length > 1) {
    writeErr(`pepe: ${e.file} is invalid; Pepe left it unchanged:\n${e.problems.map((p) => `  ${p}`).join('\n')}\n`);
    return 2;
  }
  if (e instanceof PepeError) {
    writeErr(`pepe: ${e.message}\n`);
    if (verbose && e.stack) writeErr(`${e.stack}\n`);
    return e.exitCode;
  }
  writeErr(`pepe: ${errorMessage(e)}\n`);
  if (verbose && e instanceof Error && e.stack) writeErr(`${e.stack}\n`);
  return 1;
}
