import type * as vscode from 'vscode';
import type { ChatPanel } from './chat-panel.js';

/*
 * What callers see of the chat panel collection, apart from its implementation (chat-panels.ts),
 * so the test commands that chat-panels.ts registers can name it without an import cycle.
 */

export interface OpenChatArgs {
  /** The agent to talk to; default: the panel last used, else ChatDeps.defaultAgent. */
  agent?: string;
  /** Continue this session (its panel is revealed when one already shows it). */
  sessionId?: string;
  /** An explicit model id (bypasses model_select), e.g. `mock:/abs/script.json` or `vscode:copilot/gpt-4o`. */
  model?: string;
  /** Always open a new panel with a new session. */
  newSession?: boolean;
  /** Send this message once the panel is open. */
  text?: string;
}

export interface ChatPanels extends vscode.Disposable {
  /** Opens (or reveals) a chat panel: one per session (spec 9.2). */
  open(args?: OpenChatArgs): Promise<ChatPanel>;
  readonly panels: readonly ChatPanel[];
}
