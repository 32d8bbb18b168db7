import type * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';
import type { ChatCore } from './chat-core.js';
import type { ConfigState } from './config-notice.js';

/** What the chat says in an untrusted folder (the tool refusals themselves come from the core). */
export const RESTRICTED_MODE_NOTICE =
  'This folder is in Restricted Mode: agents can read, list and search here, but they do not run commands or scripts, use plugins or write files. To allow that, trust the folder: run "Workspaces: Manage Workspace Trust" from the Command Palette.';

export const CHAT_VIEW_TYPE = 'pepe.chat';

/** What a chat panel needs from the extension (the composition root passes these in). */
export interface ChatDeps {
  /** The window's one Pepe (PepeHost.get()). */
  getPepe(): Promise<Pepe>;
  /** The core bundle's chat helpers, loaded on first use. */
  core(): ChatCore;
  log: vscode.LogOutputChannel;
  extensionUri: vscode.Uri;
  /** config.json changed (PepeHost.onDidChange): the pickers are refreshed. */
  onDidChange?: vscode.Event<void>;
  /** The agent a panel opened without one starts with (e.g. ActiveAgent.resolve); default: the first agent. */
  defaultAgent?(pepe: Pepe): string | undefined;
  /** Told when a panel's conversation moves to another agent (`/agent`, the picker, TurnResult.switchTo). */
  onAgentSwitched?(agent: string): void;
  /** A top-level turn ended (the Agents tree marks an agent whose last call failed). */
  onTurnEnded?(agent: string, status: string, error: string | null): void;
  /** Workspace Trust: false in Restricted Mode, where the core runs no tool that runs code or writes. */
  isTrusted?(): boolean;
  /** config.json as the core applies it (a problem; sections set aside), said in the chat before a turn. */
  configState?(): ConfigState;
}

/** The conversation a panel starts with; the serializer restores it from the webview's state. */
export interface ChatTarget {
  /** Given by the serializer for a restored panel; a new panel gets a new one. */
  panelId?: string;
  agent: string | null;
  sessionId: string | null;
  model?: string | null;
}
