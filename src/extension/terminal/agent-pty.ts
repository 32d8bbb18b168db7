import * as vscode from 'vscode';

/**
 * One agent's pseudoterminal (`Pepe: <agent>`): shows each sandbox command line, its live output
 * and its exit status. Ctrl+C cancels the command that is running; so does closing the terminal.
 * Text written before VS Code opened the terminal is kept and flushed on open.
 */
export class AgentPty implements vscode.Pseudoterminal {
  private readonly writer = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writer.event;
  private opened = false;
  private backlog: string[] = [];
  private running: AbortController | undefined;
  closed = false;

  constructor(private readonly onClosed: () => void) {}

  open(): void {
    this.opened = true;
    for (const text of this.backlog) this.writer.fire(text);
    this.backlog = [];
  }

  close(): void {
    this.closed = true;
    this.running?.abort();
    this.onClosed();
  }

  handleInput(data: string): void {
    if (data === '\x03' && this.running) {
      this.write('^C\r\n');
      this.running.abort();
    }
  }

  /** Starts a command: returns the signal Ctrl+C fires. */
  begin(commandLine: string): AbortSignal {
    this.running = new AbortController();
    this.write(`\x1b[1m$ ${toTerminal(commandLine)}\x1b[0m\r\n`);
    return this.running.signal;
  }

  output(chunk: string): void {
    this.write(toTerminal(chunk));
  }

  end(footer: string, endsWithNewline: boolean): void {
    this.running = undefined;
    this.write(`${endsWithNewline ? '' : '\r\n'}\x1b[2m${footer}\x1b[0m\r\n\r\n`);
  }

  /** What the terminal showed, newest 64 KB (for tests and for a "copy output" later). */
  get text(): string {
    return this.shown;
  }
  private shown = '';

  private write(text: string): void {
    this.shown = (this.shown + text).slice(-65536);
    if (this.opened) this.writer.fire(text);
    else this.backlog.push(text);
  }

  dispose(): void {
    this.running?.abort();
    this.writer.dispose();
  }
}

/** xterm needs CRLF; a lone LF would only move down a line. */
function toTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
