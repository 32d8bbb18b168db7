import * as vscode from 'vscode';
import type { SandboxSurface } from '../../core/slots/builtin/index.js';
import { errorMessage } from '../../core/errors.js';
import { shellQuote } from '../../core/display.js';
import type { SandboxRunOptions, SandboxRunResult } from '../../core/slots/builtin/sandbox.js';
import { AgentPty } from './agent-pty.js';

/**
 * The built-in sandbox's surface in VS Code (spec 9.2): every command runs as the real child
 * process (the core's `runDirect`) and is shown live in the terminal `Pepe: <agent>`. The agent
 * gets exactly what `runDirect` returned; the terminal shows the same bytes as they arrive.
 */
export class SandboxTerminals implements SandboxSurface, vscode.Disposable {
  private readonly terminals = new Map<string, { terminal: vscode.Terminal; pty: AgentPty }>();

  async run(
    agent: string | null,
    program: string,
    argv: string[],
    opts: SandboxRunOptions,
    runDirect: (opts: SandboxRunOptions) => Promise<SandboxRunResult>,
  ): Promise<SandboxRunResult> {
    const { terminal, pty } = this.terminalFor(agent ?? 'sandbox');
    terminal.show(true);
    const ctrlC = pty.begin(commandLine(program, argv));
    let last = '\n';
    const signal = opts.signal ? AbortSignal.any([opts.signal, ctrlC]) : ctrlC;
    let result: SandboxRunResult;
    try {
      result = await runDirect({
        ...opts,
        signal,
        onData: (chunk) => {
          if (chunk) last = chunk;
          pty.output(chunk);
          opts.onData?.(chunk);
        },
      });
    } catch (e) {
      pty.end(`[pepe: the command could not run: ${errorMessage(e)}]`, last.endsWith('\n'));
      throw e;
    }
    const how = result.cancelled ? ' (cancelled)' : result.timedOut ? ' (timed out)' : '';
    pty.end(`[exit status ${result.exitStatus}${how}]`, last.endsWith('\n'));
    return result;
  }

  /** A sandbox plugin's run, shown after the fact with the plugin's name (it ran elsewhere). */
  mirror(agent: string | null, program: string, argv: string[], outcome: { occupant: string; output: string; exitStatus: number } | { occupant: string; refused: string }): void {
    const { terminal, pty } = this.terminalFor(agent ?? 'sandbox');
    terminal.show(true);
    pty.begin(`${commandLine(program, argv)}    # run by the sandbox plugin ${outcome.occupant}`);
    if ('refused' in outcome) {
      pty.end(`[refused: ${outcome.refused}]`, true);
      return;
    }
    pty.output(outcome.output);
    pty.end(`[exit status ${outcome.exitStatus}]`, outcome.output === '' || outcome.output.endsWith('\n'));
  }

  /** What `Pepe: <agent>` has shown so far ('' when it has no terminal). */
  textOf(agent: string): string {
    return this.terminals.get(agent)?.pty.text ?? '';
  }

  /** The terminal named `Pepe: <agent>`, created when missing or closed by the user. */
  terminalFor(agent: string): { terminal: vscode.Terminal; pty: AgentPty } {
    const existing = this.terminals.get(agent);
    if (existing && !existing.pty.closed) return existing;
    const pty: AgentPty = new AgentPty(() => {
      if (this.terminals.get(agent)?.pty === pty) this.terminals.delete(agent);
    });
    const terminal = vscode.window.createTerminal({ name: `Pepe: ${agent}`, pty, iconPath: new vscode.ThemeIcon('terminal') });
    const entry = { terminal, pty };
    this.terminals.set(agent, entry);
    return entry;
  }

  dispose(): void {
    for (const { terminal, pty } of this.terminals.values()) {
      pty.dispose();
      terminal.dispose();
    }
    this.terminals.clear();
  }
}

/** How a person would type it: `bash -c 'echo hi'`. */
export function commandLine(program: string, argv: readonly string[]): string {
  return [program, ...argv].map(shellQuote).join(' ');
}
