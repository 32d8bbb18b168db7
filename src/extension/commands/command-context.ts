import type * as vscode from 'vscode';
import type { ActiveAgent } from '../active-agent.js';
import type { ChatPanels } from '../chat/chat-panels.js';
import type { ApiKeys } from '../host/api-keys.js';
import type { PepeHost } from '../host/pepe-host.js';
import type { ReadOnlyDocs } from '../views/read-only-docs.js';

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
  /** The chat panels (spec 9.2): one per session, restored after a reload. */
  chat: ChatPanels;
  /** Reports (Doctor, Test Slot, List Slots) as read-only documents. */
  docs: ReadOnlyDocs;
}

export type CommandHandler = (ctx: CommandContext, arg: unknown) => Promise<unknown>;
