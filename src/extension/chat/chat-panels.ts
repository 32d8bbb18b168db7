import * as vscode from 'vscode';
import { parseViewState, type ViewState } from '../../protocol/messages.js';
import { ChatPanel, type PanelOwner } from './chat-panel.js';
import { CHAT_VIEW_TYPE, type ChatDeps, type ChatTarget } from './chat-deps.js';
import type { ChatPanels, OpenChatArgs } from './chat-panels-api.js';
import { registerChatTestCommands } from './chat-test-commands.js';
import { PanelMemory } from './panel-memory.js';
import { trackLastEditor } from './panel-attachments.js';
import { registerChangeDocs } from './turn-changes.js';

export type { ChatPanels, OpenChatArgs } from './chat-panels-api.js';

/**
 * Registers the `pepe.chat` webview panel serializer (panels come back after a window reload with
 * their agent and session, from the webview's saved state) and returns the panel collection.
 * Everything registered is pushed to `context.subscriptions`.
 */
export function registerChatPanels(context: vscode.ExtensionContext, deps: Omit<ChatDeps, 'extensionUri'> & { extensionUri?: vscode.Uri }): ChatPanels {
  const full: ChatDeps = { ...deps, extensionUri: deps.extensionUri ?? context.extensionUri };
  const panels = new Panels(full, new PanelMemory(context.globalStorageUri.fsPath));
  context.subscriptions.push(
    panels,
    // @selection from the chat: a focused webview has no active text editor, so remember the last.
    trackLastEditor(),
    registerChangeDocs(() => full.getPepe()),
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        panels.restore(panel, parseViewState(state));
      },
    }),
  );
  if (context.extensionMode !== vscode.ExtensionMode.Production) context.subscriptions.push(...registerChatTestCommands(panels));
  return panels;
}

class Panels implements ChatPanels, PanelOwner {
  private readonly list: ChatPanel[] = [];
  /** Panels in the order they were last focused (most recent last). */
  private lastActive: ChatPanel | undefined;

  constructor(private readonly deps: ChatDeps, private readonly memory: PanelMemory) {}

  /** A panel the workbench brings back after a reload: the remembered target, else the webview's state. */
  restore(panel: vscode.WebviewPanel, saved: ViewState | null): ChatPanel {
    const remembered = saved?.panelId ? this.memory.get(saved.panelId) : undefined;
    const target = remembered ?? { agent: saved?.agent ?? null, sessionId: saved?.sessionId ?? null, model: saved?.model ?? null };
    return this.adopt(panel, { ...target, ...(saved?.panelId ? { panelId: saved.panelId } : {}) });
  }

  remember(panel: ChatPanel): void {
    this.memory.set(panel.panelId, panel.target);
  }

  get panels(): readonly ChatPanel[] {
    return this.list;
  }

  async open(args: OpenChatArgs = {}): Promise<ChatPanel> {
    if (args.sessionId && args.agent) {
      const existing = this.panelFor(args.agent, args.sessionId);
      if (existing) return this.shown(existing, args);
    }
    if (!args.newSession && !args.sessionId) {
      const candidates = this.list.filter((p) => !args.agent || p.target.agent === args.agent);
      const reuse = candidates.includes(this.lastActive!) ? this.lastActive : candidates.at(-1);
      if (reuse && !args.model) return this.shown(reuse, args);
    }
    const panel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'Pepe Chat', { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, { enableFindWidget: true });
    return this.shown(this.adopt(panel, { agent: args.agent ?? null, sessionId: args.sessionId ?? null, model: args.model ?? null }), args);
  }

  adopt(panel: vscode.WebviewPanel, target: ChatTarget): ChatPanel {
    const chat = new ChatPanel(panel, this.deps, target, this);
    this.list.push(chat);
    this.lastActive = chat;
    panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.lastActive = chat;
    });
    return chat;
  }

  panelFor(agent: string, sessionId: string): ChatPanel | undefined {
    return this.list.find((p) => p.target.agent === agent && p.target.sessionId === sessionId);
  }

  changed(_panel: ChatPanel): void {
    // Nothing derived to update yet: lookups read the panels' current targets.
  }

  disposed(panel: ChatPanel): void {
    const i = this.list.indexOf(panel);
    if (i >= 0) this.list.splice(i, 1);
    if (this.lastActive === panel) this.lastActive = this.list.at(-1);
  }

  dispose(): void {
    for (const p of [...this.list]) p.dispose();
  }

  private async shown(panel: ChatPanel, args: OpenChatArgs): Promise<ChatPanel> {
    panel.reveal();
    // The turn runs on; `open` returns once the panel is there.
    if (args.text) void panel.send(args.text);
    return panel;
  }
}
