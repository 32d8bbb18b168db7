import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { parseChatInput } from '../../core/chat-command.js';
import { errorMessage } from '../../core/errors.js';
import type { Pepe } from '../../core/pepe.js';
import type { TurnEvent, TurnResult } from '../../core/events.js';
import { parseWebviewMessage, type ChatItem, type HostMessage, type PanelState, type Usage, type WebviewMessage } from '../../protocol/messages.js';
import { projectFor } from '../project.js';
import { chatHtml } from './html.js';
import { configNotice, type ConfigState } from './config-notice.js';
import { historyItems, sessionTitle } from './history-items.js';
import { PanelSessions } from './panel-sessions.js';
import { keyEnvNames } from '../host/api-keys.js';
import { modelChoices } from './model-choices.js';
import { ItemQueue } from './item-queue.js';
import { inertEvent } from './inert-items.js';
import { UsageMeter } from './usage-meter.js';
import { isRestrictedRefusal } from '../../core/permissions/restricted.js';
import { offerToTrust } from '../host/workspace-trust.js';
import type { TurnAttachment } from '../../core/context-attachments.js';
import { PanelAttachments } from './attachment-store.js';
import type { ImagePart } from '../../core/images.js';
import type { ChatCore } from './chat-core.js';
import { handleContextMessage } from './panel-context.js';
import { changesOfTurn } from './turn-changes.js';
import { expansionOutcome, helpItem, slashCommands } from './panel-prompts.js';
import { PanelTaint } from './panel-taint.js';
import { PanelPlan } from './panel-plan.js';
import { planHandover } from '../../core/permissions/plan-mode.js';
import { openConfigAt } from './failure-fixes.js';
import { agentIntro } from '../../core/agent-intro.js';

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
export class ChatPanel implements vscode.Disposable {
  readonly panelId: string;
  private agent: string | null;
  private sessionId: string | null;
  private model: string | null;
  private readonly queue: ItemQueue;
  private running: AbortController | null = null;
  private readonly loaded: Promise<void>;
  private readonly subs: vscode.Disposable[] = [];
  private readonly sessions: PanelSessions;
  private disposed = false;
  /** Context attached to the next message (chips in the composer). */
  private readonly attachments = new PanelAttachments();
  /** The conversation's outside content, for the header (spec 5.3). */
  private readonly taint = new PanelTaint();
  /** Plan mode and the last plan "Start" hands over. */
  private readonly plan = new PanelPlan();

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly deps: ChatDeps,
    target: ChatTarget,
    private readonly owner: PanelOwner,
  ) {
    this.panelId = target.panelId ?? randomUUID();
    this.agent = target.agent;
    this.sessionId = target.sessionId;
    this.model = target.model ?? null;
    this.queue = new ItemQueue((items) => this.post({ type: 'items', items }));
    this.sessions = new PanelSessions(this, deps, owner);
    const webview = panel.webview;
    webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'dist'), vscode.Uri.joinPath(deps.extensionUri, 'media')],
    };
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'pepe.svg');
    webview.html = chatHtml(webview, deps.extensionUri);
    this.subs.push(
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
      // Back to the chat from a diff editor, the terminal or another tab: typing goes to the input.
      panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active) this.focusInput();
      }),
    );
    if (deps.onDidChange) this.subs.push(deps.onDidChange(() => void this.sendAgents()));
    this.loaded = this.load();
    this.updateTitle();
  }

  get target(): { agent: string | null; sessionId: string | null; model: string | null } {
    return { agent: this.agent, sessionId: this.sessionId, model: this.model };
  }

  get busy(): boolean {
    return this.running !== null;
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
    this.running?.abort();
    return this.running !== null;
  }

  /** Sends a message as if typed (used by `pepe.chat.open {text}` and tests); resolves with the turn's result. */
  async send(text: string): Promise<TurnResult | undefined> {
    await this.loaded;
    this.lastResult = undefined;
    await this.handle({ type: 'send', text });
    return this.lastResult;
  }

  private lastResult: TurnResult | undefined;

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

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.running?.abort();
    this.meter?.meter.dispose();
    this.queue.dispose();
    for (const s of this.subs.splice(0)) s.dispose();
    this.owner.disposed(this);
    this.panel.dispose();
  }

  // ---- loading ----

  private async load(): Promise<void> {
    try {
      const pepe = await this.deps.getPepe();
      if (!this.agent || !pepe.config.agents?.[this.agent]) this.agent = this.deps.defaultAgent?.(pepe) ?? Object.keys(pepe.config.agents ?? {})[0] ?? null;
      if (this.agent && this.sessionId) {
        if (pepe.sessions.exists(this.agent, this.sessionId)) {
          this.queue.reset(historyItems(this.agent, pepe.sessions.load(this.agent, this.sessionId).messages));
        } else {
          this.queue.reset([{ kind: 'notice', level: 'warning', text: `Session ${this.sessionId} of ${this.agent} no longer exists; a new one starts with your next message.` }]);
          this.sessionId = null;
        }
      }
      if (!this.agent) this.queue.reset([{ kind: 'notice', level: 'info', text: 'No agents yet: add one with Pepe: Add Agent…' }]);
    } catch (e) {
      this.queue.reset([{ kind: 'notice', level: 'error', text: `Pepe could not start: ${errorMessage(e)}` }]);
    }
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
        return this.runTurn(msg.text, this.attachments.take(msg.attachments), images);
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
        this.running?.abort();
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
      case 'set_api_key': {
        // The name comes from a failure's text: only a key a configured model reads is offered.
        const pepe = await this.deps.getPepe();
        if (!keyEnvNames(pepe.config.models).includes(msg.name)) throw new Error(`no configured model reads an API key named ${msg.name}`);
        await vscode.commands.executeCommand('pepe.apiKey.set', { name: msg.name });
        return;
      }
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
    if (this.running) return;
    if (!this.plan.canStart) {
      this.queue.push({ kind: 'notice', level: 'info', text: 'No plan to start yet: ask for one in plan mode.' });
      return;
    }
    if (agent && agent !== this.agent && !(await this.deps.getPepe()).config.agents?.[agent]) return this.switchAgent(agent, 'you'); // says there is no such agent
    // Taken before a switch, which forgets the conversation it leaves.
    const plan = this.plan.take()!;
    if (agent && agent !== this.agent) await this.switchAgent(agent, 'you');
    await this.runTurn(planHandover(plan));
  }

  // ---- turns ----

  private async runTurn(text: string, attachments: TurnAttachment[] = [], images: ImagePart[] = []): Promise<void> {
    if (this.running) return; // the webview disables Send while a turn runs
    const agent = this.agent;
    if (!agent) {
      this.queue.push({ kind: 'notice', level: 'error', text: 'No agent to talk to: add one with Pepe: Add Agent…' });
      return;
    }
    const controller = new AbortController();
    this.running = controller;
    this.queue.push({ kind: 'user', text, ...(attachments.length ? { attachments: attachments.map((a) => ({ kind: a.kind, label: a.label })) } : {}), ...(images.length ? { images: images.map((i) => ({ label: i.name ?? i.media_type })) } : {}) });
    this.noteRestrictedMode();
    this.noteConfig();
    await this.postState();
    let meter: UsageMeter | undefined;
    try {
      const pepe = await this.deps.getPepe();
      // `/name args` is the prompt file's text; the conversation shows what was typed, and which file it used.
      const expanded = expansionOutcome(text, await pepe.interop.expand(text));
      if (expanded.notice) this.queue.push(expanded.notice);
      if (expanded.text === null) return;
      meter = this.meterFor(pepe);
      meter.startTurn();
      const result = await pepe.run({
        agent,
        text: expanded.text,
        sessionId: this.sessionId ?? undefined,
        ...(this.sessionId ? {} : { sessionTitle: sessionTitle(text) }),
        model: this.model ?? undefined,
        signal: controller.signal,
        personPresent: true,
        ...(attachments.length ? { attachments } : {}),
        ...(images.length ? { images } : {}),
        metadata: { channel: 'vscode-chat' },
        onEvent: (event) => this.onEvent(event),
        ...this.plan.turnOptions(),
      });
      this.lastResult = result;
      this.plan.finished(result);
      this.setSession(result.sessionId);
      // A turn that changed files had a checkpoint taken before it: offer restore and compare.
      const changed = await changesOfTurn(pepe, result.sessionId, result.turnId);
      if (changed) this.queue.push({ kind: 'checkpoint', sessionId: result.sessionId, turnId: result.turnId, files: changed.files, label: this.deps.core().checkpointLabel(changed.checkpoint) });
      if (result.switchTo) {
        this.running = null;
        await this.switchAgent(result.switchTo, agent);
      }
    } catch (e) {
      // The turn could not start (unknown agent, missing session, a broken config.json).
      this.queue.push({ kind: 'notice', level: 'error', text: errorMessage(e), retryText: text });
    } finally {
      const usage = meter?.endTurn();
      if (usage) this.queue.push({ kind: 'usage', usage });
      if (this.running === controller) this.running = null;
      this.queue.flush();
      await this.postState();
      await this.postCommands();
    }
  }

  /** "I have read it; trust this conversation again": only the person's own action reaches here. */
  private async trust(): Promise<void> {
    const pepe = await this.deps.getPepe();
    this.queue.push({ kind: 'notice', level: 'info', text: this.taint.trust(pepe, this.agent, this.sessionId, this.running !== null) });
    await this.postState();
  }

  private onEvent(event: TurnEvent): void {
    if (event.type === 'turn_start' && event.path.length === 1) this.setSession(event.sessionId);
    if (event.type === 'turn_end' && event.path.length === 1) this.deps.onTurnEnded?.(event.agent, event.status, event.error ?? null);
    // A dialog (the approval, a diff to accept) had the keyboard: the input gets it back.
    if (event.type === 'approval_decided' && event.decision !== null) this.focusInput();
    if (this.taint.onEvent(event)) void this.postState();
    this.meter?.meter.onEvent(event);
    this.queue.push({ kind: 'event', event: inertEvent(event) });
    // Restricted Mode refused a tool: say why and offer the way to trust the folder, once per panel.
    if (event.type === 'tool_result' && event.isError && isRestrictedRefusal(event.content) && !this.trustOffered) {
      this.trustOffered = true;
      void offerToTrust(event.name);
    }
  }

  private configNoted: string | null = null;

  /** Said once per distinct state: running on the last good configuration, or with sections set aside. */
  private noteConfig(): void {
    const state = this.deps.configState?.();
    const notice = state ? configNotice(state) : null;
    if (!notice || notice.text === this.configNoted) return;
    this.configNoted = notice.text;
    this.queue.push({ kind: 'notice', level: notice.level, text: notice.text });
  }

  private meter: { pepe: Pepe; meter: UsageMeter } | undefined;

  /** The tokens-and-cost meter on this Pepe's usage ledger (a rebuilt Pepe gets a new one). */
  private meterFor(pepe: Pepe): UsageMeter {
    if (this.meter?.pepe !== pepe) {
      this.meter?.meter.dispose();
      this.meter = { pepe, meter: new UsageMeter(pepe.usage) };
    }
    return this.meter.meter;
  }

  private restrictedNoted = false;
  private trustOffered = false;

  /** In an untrusted folder the conversation says so once, before the first turn runs. */
  private noteRestrictedMode(): void {
    if (this.restrictedNoted || this.deps.isTrusted?.() !== false) return;
    this.restrictedNoted = true;
    this.queue.push({ kind: 'notice', level: 'warning', text: RESTRICTED_MODE_NOTICE });
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
    if (this.running) {
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
    if (this.running) {
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

  // ---- sessions ----

  // ---- host → webview ----

  private async state(): Promise<PanelState> {
    let tier: string | null = null;
    let project: string | null = null;
    let sessionUsage: Usage | null = null;
    let outsideContent: string[] = [];
    let planMode = this.plan.on(undefined);
    let figures: Pick<PanelState, 'context' | 'budget' | 'projectSpend'> = {};
    let intro: PanelState['intro'] = null;
    try {
      const pepe = await this.deps.getPepe();
      outsideContent = this.taint.current(pepe, this.agent, this.sessionId);
      const about = this.agent ? agentIntro(pepe.config, this.agent) : null;
      intro = about ? { summary: about.summary, examples: about.examples } : null;
      if (this.agent && this.sessionId) {
        const f = pepe.conversationFigures(this.agent, this.sessionId);
        figures = { context: f.context, budget: f.budget, projectSpend: f.project ? { spendUsd: f.project.spendUsd, capUsd: f.project.capUsd } : null };
      }
      planMode = this.plan.on(this.agent ? pepe.config.agents?.[this.agent]?.plan_mode : undefined);
      sessionUsage = this.meterFor(pepe).sessionUsage(this.sessionId);
      project = projectFor(pepe.config, this.agent ?? undefined) ?? null;
      if (project) {
        const t = pepe.usage.projectUsage(pepe.config, project).tier;
        tier = t === 'normal' ? null : t;
      }
    } catch {
      // no Pepe: nothing to say about tiers
    }
    return { panelId: this.panelId, agent: this.agent, sessionId: this.sessionId, model: this.model, tier, project, busy: this.running !== null, sessionUsage, attachments: this.attachments.chips, outsideContent, planMode, canStartPlan: this.plan.canStart, intro, ...figures };
  }

  private async pickers(): Promise<{ agents: { name: string; model: string | null; project: string | null }[]; models: Awaited<ReturnType<typeof modelChoices>> }> {
    try {
      const pepe = await this.deps.getPepe();
      const agents = pepe.agentList().map((a) => ({ name: a.name, model: a.model, project: a.project }));
      return { agents, models: await modelChoices(pepe.config, this.agent) };
    } catch {
      return { agents: [], models: [{ id: null, label: 'Default', group: 'default' }] };
    }
  }

  private async postInit(): Promise<void> {
    const [state, { agents, models }] = await Promise.all([this.state(), this.pickers()]);
    await this.post({ type: 'init', state, agents, models, items: this.queue.attach() });
    await this.postCommands();
  }

  /** The `/` completions: the chat's commands and the prompt files as they are now. */
  private async postCommands(): Promise<void> {
    try {
      await this.post({ type: 'commands', commands: slashCommands(await (await this.deps.getPepe()).interop.prompts()) });
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
