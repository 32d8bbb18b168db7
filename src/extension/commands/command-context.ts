import type * as vscode from 'vscode';
import type { ActiveAgent } from '../active-agent.js';
import type { ApiKeys } from '../host/api-keys.js';
import type { PepeHost } from '../host/pepe-host.js';

/** What every command handler gets from the composition root. */
export interface CommandContext {
  host: PepeHost;
  log: vscode.LogOutputChannel;
  active: ActiveAgent;
  apiKeys: ApiKeys;
  /** Problems panel entries for `pepe.core.check` and `pepe.doctor`. */
  diagnostics: vscode.DiagnosticCollection;
  /** Re-render the trees and the status bar after an edit. */
  refresh: () => void;
  /** A named output channel for agent transcripts (created once, owned by the root). */
  transcript: () => vscode.OutputChannel;
  /** The session each agent's chat continues in, in this window. */
  chatSessions: Map<string, string>;
}

export type CommandHandler = (ctx: CommandContext, arg: unknown) => Promise<unknown>;
