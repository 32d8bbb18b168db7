import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { parseChatInput } from '../../core/chat-command.js';
import { errorMessage } from '../../core/errors.js';
import type { TurnResult } from '../../core/events.js';
import { parseWebviewMessage, type ChatItem, type HostMessage, type PanelState, type WebviewMessage } from '../../protocol/messages.js';
import { showChatIn } from './html.js';
import { openingConversation } from './panel-opening.js';
import { PanelSessions } from './panel-sessions.js';
import { ItemQueue } from './item-queue.js';
import type { TurnAttachment } from '../../core/context-attachments.js';
import { PanelAttachments } from './attachment-store.js';
import type { ImagePart } from '../../core/images.js';
import { handleContextMessage } from './panel-context.js';
import { helpItem, slashCommands } from './panel-prompts.js';
import { PanelTaint } from './panel-taint.js';
import { PanelPlan } from './panel-plan.js';
import { planHandover } from '../../core/permissions/plan-mode.js';
import { openConfigAt, setApiKeyFor } from './failure-fixes.js';
import { Disposable } from '../disposable.js';
import type { ChatDeps, ChatTarget } from './chat-deps.js';
import { PanelTurns } from './panel-turn.js';
import { panelPickers, panelState, type ViewedPanel } from './panel-view-state.js';

/** What the panel collection is told, so it keeps one panel per session. */
export interface PanelOwner {
  /** Remembers which conversation a panel shows (PanelMemory), for the serializer. */
  remember(panel: ChatPanel): void;
  panelFor(agent: string, sessionId: string): ChatPanel | undefined;
  changed(panel: ChatPanel): void;
  disposed(panel: ChatPanel): void;
}

/**
 * One chat editor tab: a conversation with one agent in one session (spec 9.2). Runs turns through
 * the core with the webview as the surface: every TurnEvent is forwarded (batched per frame) and
 * kept, so a webview that was hidden (and so destroyed: no retainContextWhenHidden) is given the
 * whole conversation again when it is shown.
 */
export class ChatPanel extends Disposable {
  readonly panelId: string;
  private agent: string | null;
  private sessionId: string | null;
  private model: string | null;
  private readonly queue: ItemQueue;
  private readonly loaded: Promise<void>;
  private readonly sessions: PanelSessions;
  private disposed = false;
  /** Context attached to the next message (chips in the composer). */
  private readonly attachments = new PanelAttachments();
  /** The conversation's outside content, for the header (spec 5.3). */
  private readonly taint = new PanelTaint();
  /** Plan mode and the last plan "Start" hands over. */
  private readonly plan = new PanelPlan();
  /** The running turn, its meter and the notices said once per panel. */
  private readonly turns: PanelTurns;
  /** What the header and the composer are built from (panel-view-state.ts). */
  private readonly viewed: ViewedPanel;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly deps: ChatDeps,
    target: ChatTarget,
    private readonly owner: PanelOwner,
  ) {
    super();
    this.panelId = target.panelId ?? randomUUID();
    this.agent = target.agent;
    this.sessionId = target.sessionId;
    this.model = target.model ?? null;
    this.queue = this._register(new ItemQueue((items) => this.post({ type: 'items', items })));
    this.sessions = new PanelSessions(this, deps, owner);
    this.turns = new PanelTurns(
      {
        conversation: () => this.target,
        queue: this.queue,
        plan: this.plan,
        taint: this.taint,
        setSession: (id) => this.setSession(id),
        switchAgent: (agent, by) => this.switchAgent(agent, by),
        focusInput: () => this.focusInput(),
        postState: () => this.postState(),
        postCommands: () => this.postCommands(),
      },
      deps,
    );
    this._register(this.turns);
    this.viewed = {
      panelId: this.panelId,
      conversation: () => this.target,
      busy: () => this.busy,
      attachments: this.attachments,
      taint: this.taint,
      plan: this.plan,
      meterFor: (pepe) => this.turns.meterFor(pepe),
    };
    showChatIn(panel, deps.extensionUri);
    this._register(panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    this._register(panel.onDidDispose(() => this.dispose()));
    // Back to the chat from a diff editor, the terminal or another tab: typing goes to the input.
    this._register(
      panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active) this.focusInput();
      }),
    );
    if (deps.onDidChange) this._register(deps.onDidChange(() => void this.sendAgents()));
    this.loaded = this.load();
    this.updateTitle();
  }

  get target(): { agent: string | null; sessionId: string | null; model: string | null } {
    return { agent: this.agent, sessionId: this.sessionId, model: this.model };
  }

  get busy(): boolean {
    return this.turns.busy;
  }

  /** Shows the panel with the keyboard in its message input (the focus keybinding, Open Chat). */
  reveal(): void {
    this.panel.reveal();
    this.focusInput();
  }

  /** Puts the keyboard back in the message input (after a dialog, a pick or a diff took it). */
  focusInput(): void {
    void this.post({ type: 'focus_input' });
  }

  /** Stops the running turn, as the Stop button does (the pepe.chat.stop keybinding). */
  stop(): boolean {
    return this.turns.stop();
  }

  /** Sends a message as if typed (used by `pepe.chat.open {text}` and tests); resolves with the turn's result. */
  async send(text: string): Promise<TurnResult | undefined> {
    await this.loaded;
    this.turns.lastResult = undefined;
    await this.handle({ type: 'send', text });
    return this.turns.lastResult;
  }

  /** "Add Selection to Pepe Chat": context gathered by a command, shown as a chip for the next message. */
  async attach(attachment: TurnAttachment): Promise<void> {
    await this.loaded;
    this.attachments.add(attachment);
    await this.postState();
  }

  /** Test-only path (not reachable from the webview): pushes items as if a turn produced them. */
  pushForTest(items: ChatItem[]): void {
    for (const item of items) this.queue.push(item);
  }

  /** Test-only: replaces the conversation with `items`, as opening a long session would. */
  resetForTest(items: ChatItem[]): void {
    this.queue.reset(items);
    void this.postReset();
  }

  override dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // The listeners, the running turn (aborted) and the item queue, newest first.
    super.dispose();
    this.owner.disposed(this);
    this.panel.dispose();
  }

  // ---- loading ----

  private async load(): Promise<void> {
    const opening = await openingConversation(this.deps, this.agent, this.sessionId);
    this.agent = opening.agent;
    this.sessionId = opening.sessionId;
    if (opening.items) this.queue.reset(opening.items);
    this.updateTitle();
    this.owner.changed(this);
    this.owner.remember(this);
  }

  // ---- webview → host ----

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.deps.log.warn(`chat: dropped an invalid message from the webview (${parsed.error})`);
      return;
    }
    this.handle(parsed.value).catch((e: unknown) => {
      this.deps.log.error(`chat: ${parsed.value.type}: ${errorMessage(e)}`);
      this.queue.push({ kind: 'notice', level: 'error', text: errorMessage(e) });
    });
  }

  private async handle(msg: WebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        await this.loaded;
        return this.postInit();
      case 'send': {
        const input = parseChatInput(msg.text);
        if (input.kind === 'agent') return this.switchAgent(input.name, 'you');
        if (input.kind === 'agent_usage' || input.kind === 'start_usage') {
          this.queue.push({ kind: 'notice', level: 'info', text: input.usage });
          return;
        }
        if (input.kind === 'help') return void this.queue.push(await helpItem(await this.deps.getPepe()));
        if (input.kind === 'trust') return this.trust();
        if (input.kind === 'mode') return this.setPlanMode(input.plan);
        if (input.kind === 'start') return this.startPlan(input.agent);
        let images: ImagePart[];
        try {
          // Checked in the core bundle (zod stays out of activation).
          images = this.deps.core().imagesFromWebview(msg.images);
        } catch (e) {
          this.queue.push({ kind: 'notice', level: 'error', text: errorMessage(e) });
          return;
        }
        return this.turns.run(msg.text, this.attachments.take(msg.attachments), images);
      }
      case 'attach':
      case 'detach':
      case 'open_file':
      case 'show_change':
      case 'checkpoint':
        // An @-pick, a file, a diff or a restore took the keyboard: give it back to the input after.
        return handleContextMessage(msg, {
          getPepe: () => this.deps.getPepe(),
          attachments: this.attachments,
          notice: (text) => this.queue.push({ kind: 'notice', level: 'warning', text }),
          postState: () => this.postState(),
          log: this.deps.log,
        }).finally(() => this.focusInput());
      case 'set_plan_mode':
        return this.setPlanMode(msg.plan);
      case 'start_plan':
        return this.startPlan();
      case 'stop':
        this.turns.stop();
        return;
      case 'trust_session':
        return this.trust();
      case 'set_agent':
        return this.switchAgent(msg.agent, 'you');
      case 'set_model':
        this.model = msg.model;
        this.owner.remember(this);
        return this.postState();
      case 'new_session':
        return this.replace(this.agent, null, []);
      case 'list_sessions':
        return this.sessions.send(msg.query, msg.requestId);
      case 'open_session':
        return this.sessions.open(msg.agent, msg.sessionId);
      case 'rename_session':
        return this.sessions.rename(msg.agent, msg.sessionId);
      case 'delete_session':
        return this.sessions.delete(msg.agent, msg.sessionId);
      case 'export_session':
        return this.sessions.export(msg.agent, msg.sessionId);
      case 'copy':
        await vscode.env.clipboard.writeText(msg.text);
        return void this.post({ type: 'copied', ...(msg.requestId ? { requestId: msg.requestId } : {}) });
      case 'set_api_key':
        return setApiKeyFor(await this.deps.getPepe(), msg.name);
      case 'edit_model':
        return openConfigAt(await this.deps.getPepe(), 'models', msg.model);
      case 'edit_budget':
        return openConfigAt(await this.deps.getPepe(), 'agents', msg.agent);
    }
  }

  // ---- plan mode ----

  private async setPlanMode(plan: boolean): Promise<void> {
    this.plan.set(plan);
    this.queue.push({ kind: 'notice', level: 'info', text: plan ? 'Plan mode: only tools that read run; the agent answers with a plan, and Start carries it out.' : 'Acting: tools run under the usual approvals.' });
    await this.postState();
  }

  /** "Start" (or /start [AGENT]): the last plan, in acting mode, here or with another agent in a new session. */
  private async startPlan(agent?: string): Promise<void> {
    if (this.turns.busy) return;
    if (!this.plan.canStart) {
      this.queue.push({ kind: 'notice', level: 'info', text: 'No plan to start yet: ask for one in plan mode.' });
      return;
    }
    if (agent && agent !== this.agent && !(await this.deps.getPepe()).config.agents?.[agent]) return this.switchAgent(agent, 'you'); // says there is no such agent
    // Taken before a switch, which forgets the conversation it leaves.
    const plan = this.plan.take()!;
    if (agent && agent !== this.agent) await this.switchAgent(agent, 'you');
    await this.turns.run(planHandover(plan));
  }

  /** "I have read it; trust this conversation again": only the person's own action reaches here. */
  private async trust(): Promise<void> {
    const pepe = await this.deps.getPepe();
    this.queue.push({ kind: 'notice', level: 'info', text: this.taint.trust(pepe, this.agent, this.sessionId, this.turns.busy) });
    await this.postState();
  }

  private setSession(sessionId: string): void {
    if (this.sessionId === sessionId) return;
    this.sessionId = sessionId;
    this.taint.forget();
    this.owner.changed(this);
    this.owner.remember(this);
    void this.postState();
  }

  /** `/agent NAME`, the agent picker, or TurnResult.switchTo (spec 6.3): a new session with `agent`. */
  private async switchAgent(agent: string, by: string): Promise<void> {
    const pepe = await this.deps.getPepe();
    if (!pepe.config.agents?.[agent]) {
      this.queue.push({ kind: 'notice', level: 'error', text: `There is no agent "${agent}". Agents: ${Object.keys(pepe.config.agents ?? {}).join(', ') || 'none'}.` });
      return;
    }
    if (this.turns.busy) {
      this.queue.push({ kind: 'notice', level: 'warning', text: `A turn is running; stop it before switching to ${agent}.` });
      return;
    }
    const from = this.agent;
    const who = by === 'you' ? 'You switched' : `${by} handed the conversation over`;
    await this.replace(agent, null, [{ kind: 'notice', level: 'info', text: `${who}${from && from !== agent ? ` from ${from}` : ''} to ${agent}: a new session starts with your next message.` }]);
    this.deps.onAgentSwitched?.(agent);
  }

  /** Shows another conversation in this panel (new session, another agent, a session from the history). */
  async replace(agent: string | null, sessionId: string | null, items: ChatItem[]): Promise<void> {
    if (this.turns.busy) {
      this.queue.push({ kind: 'notice', level: 'warning', text: 'A turn is running; stop it first.' });
      return;
    }
    this.agent = agent;
    this.sessionId = sessionId;
    this.taint.forget();
    this.plan.forget();
    this.queue.reset(items);
    this.updateTitle();
    this.owner.changed(this);
    this.owner.remember(this);
    await this.postReset();
  }

  // ---- host → webview ----

  private state(): Promise<PanelState> {
    return panelState(() => this.deps.getPepe(), this.viewed);
  }

  private pickers(): ReturnType<typeof panelPickers> {
    return panelPickers(() => this.deps.getPepe(), this.agent);
  }

  private async postInit(): Promise<void> {
    const [state, { agents, models }] = await Promise.all([this.state(), this.pickers()]);
    await this.post({ type: 'init', state, agents, models, items: this.queue.attach() });
    await this.postCommands();
  }

  /** The `/` completions: the chat's commands and the prompt files as they are now. */
  private async postCommands(): Promise<void> {
    try {
      await this.post({ type: 'commands', commands: slashCommands(await (await this.deps.getPepe()).promptCatalog()) });
    } catch (e) {
      this.deps.log.warn(`chat: could not list the prompt files (${errorMessage(e)})`);
    }
  }

  private async postReset(): Promise<void> {
    if (!this.queue.attached) return;
    const [state, { agents, models }] = await Promise.all([this.state(), this.pickers()]);
    await this.post({ type: 'agents', agents, models });
    await this.post({ type: 'reset', state, items: this.queue.snapshot() });
  }

  private async postState(): Promise<void> {
    if (!this.queue.attached) return;
    await this.post({ type: 'state', state: await this.state() });
  }

  private async sendAgents(): Promise<void> {
    if (!this.queue.attached) return;
    await this.post({ type: 'agents', ...(await this.pickers()) });
    await this.postState();
  }

  async post(msg: HostMessage): Promise<void> {
    if (this.disposed) return;
    // A webview that is hidden (and so destroyed) drops messages; it asks again with `ready`.
    if (!(await this.panel.webview.postMessage(msg))) this.queue.detach();
  }

  updateTitle(): void {
    if (!this.disposed) this.panel.title = this.agent ? `Pepe: ${this.agent}` : 'Pepe Chat';
  }
}
