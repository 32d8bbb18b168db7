import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors.js';
import type { Pepe } from '../../core/pepe.js';
import type { WebviewMessage } from '../../protocol/messages.js';
import type { PanelAttachments } from './attachment-store.js';
import { gather } from './panel-attachments.js';
import { openWorkspaceFile, showChangeSinceTurn } from './turn-changes.js';

/** The webview's messages about context and file changes (issue 17), answered for one panel. */
export type ContextMessage = Extract<WebviewMessage, { type: 'attach' | 'detach' | 'open_file' | 'show_change' | 'checkpoint' }>;

export interface ContextEnv {
  getPepe(): Promise<Pepe>;
  attachments: PanelAttachments;
  /** Said in the conversation (a refused attachment). */
  notice(text: string): void;
  /** The chips changed: the panel's state is posted again. */
  postState(): Promise<void>;
  log: vscode.LogOutputChannel;
}

export async function handleContextMessage(msg: ContextMessage, env: ContextEnv): Promise<void> {
  switch (msg.type) {
    case 'attach': {
      const pepe = await env.getPepe();
      try {
        for (const a of await gather(pepe, msg.kind, msg.uris)) env.attachments.add(a);
      } catch (e) {
        env.notice(`Not attached: ${errorMessage(e)}`);
      }
      return env.postState();
    }
    case 'detach':
      env.attachments.remove(msg.id);
      return env.postState();
    case 'open_file':
      return openWorkspaceFile(await env.getPepe(), msg.path);
    case 'show_change':
      return showChangeSinceTurn(await env.getPepe(), msg.path, msg.sessionId, msg.turnId);
    case 'checkpoint':
      // The command asks before it restores, and says what went wrong in a notification.
      await vscode.commands.executeCommand(`pepe.checkpoints.${msg.action}`, { sessionId: msg.sessionId, turnId: msg.turnId }).then(undefined, (e: unknown) => {
        env.log.warn(`chat: checkpoint ${msg.action}: ${errorMessage(e)}`);
      });
      return;
  }
}
