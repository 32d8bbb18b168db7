import * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';
import type { ChatItem, HostMessage } from '../../protocol/messages.js';
import { historyItems, sessionSummaries } from './history-items.js';
import type { ChatCore } from './chat-core.js';

/** What the history list's actions need of the panel they act for (a ChatPanel). */
export interface SessionPanel {
  reveal(): void;
  readonly busy: boolean;
  replace(agent: string | null, sessionId: string | null, items: ChatItem[]): Promise<void>;
  updateTitle(): void;
  post(msg: HostMessage): Promise<void>;
}

/**
 * The chat's session history list and its actions (open, rename, delete), for one panel. The list
 * is asked of the core by session origin (history-items.ts); a session already shown in another
 * panel is revealed there rather than opened twice.
 */
export class PanelSessions {
  constructor(
    private readonly panel: SessionPanel,
    private readonly deps: { getPepe(): Promise<Pepe>; core(): ChatCore },
    private readonly owner: { panelFor(agent: string, sessionId: string): SessionPanel | undefined },
  ) {}

  /** The session list (searched when `query` is given); `requestId` when it answers the webview's `list_sessions`. */
  async send(query?: string, requestId?: string): Promise<void> {
    const pepe = await this.deps.getPepe();
    const id = requestId ? { requestId } : {};
    const sessions = { list: pepe.sessionList.bind(pepe), load: pepe.sessionLoad.bind(pepe) };
    const msg: HostMessage = query?.trim()
      ? { type: 'sessions', sessions: this.deps.core().searchSessions(sessions, query), query, ...id }
      : { type: 'sessions', sessions: sessionSummaries(sessions), ...id };
    await this.panel.post(msg);
  }

  /** "Export as Markdown": the same Markdown as `pepe sessions export`, to a file the person picks. */
  async export(agent: string, sessionId: string): Promise<void> {
    const pepe = await this.deps.getPepe();
    const session = pepe.sessionLoad(agent, sessionId);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${(session.info.title ?? sessionId).replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60) || sessionId}.md`;
    const target = await vscode.window.showSaveDialog({ title: `Export "${session.info.title ?? sessionId}" as Markdown`, filters: { Markdown: ['md'] }, ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}) });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(this.deps.core().sessionMarkdown(session.info, session.messages), 'utf8'));
    const open = 'Open';
    if ((await vscode.window.showInformationMessage(`Exported to ${vscode.workspace.asRelativePath(target)}`, open)) === open) await vscode.window.showTextDocument(target);
  }

  async open(agent: string, sessionId: string): Promise<void> {
    const other = this.owner.panelFor(agent, sessionId);
    if (other && other !== this.panel) return other.reveal();
    const pepe = await this.deps.getPepe();
    await this.panel.replace(agent, sessionId, historyItems(agent, pepe.sessionLoad(agent, sessionId).messages));
  }

  async rename(agent: string, sessionId: string): Promise<void> {
    const pepe = await this.deps.getPepe();
    const current = pepe.sessionLoad(agent, sessionId).info.title ?? '';
    const title = await vscode.window.showInputBox({ title: `Rename session ${sessionId} of ${agent}`, prompt: 'Title', value: current, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'a title cannot be empty') });
    if (title === undefined) return;
    pepe.sessionRename(agent, sessionId, title.trim());
    this.panel.updateTitle();
    await this.send();
  }

  async delete(agent: string, sessionId: string): Promise<void> {
    const pepe = await this.deps.getPepe();
    const info = pepe.sessionLoad(agent, sessionId).info;
    const yes = 'Delete';
    const picked = await vscode.window.showWarningMessage(`Delete the session "${info.title ?? sessionId}" of ${agent}?`, { modal: true, detail: `${info.messages} messages. This cannot be undone.` }, yes);
    if (picked !== yes) return;
    const showing = this.owner.panelFor(agent, sessionId);
    if (showing?.busy) throw new Error('that session has a running turn; stop it first');
    pepe.sessionDelete(agent, sessionId);
    if (showing) await showing.replace(agent, null, [{ kind: 'notice', level: 'info', text: 'This session was deleted; a new one starts with your next message.' }]);
    await this.send();
  }
}
