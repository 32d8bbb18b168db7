import { errorMessage } from '../../core/errors.js';
import type { Pepe } from '../../core/pepe.js';
import type { TurnEvent, TurnResult } from '../../core/events.js';
import type { TurnAttachment } from '../../core/context-attachments.js';
import type { ImagePart } from '../../core/images.js';
import { isRestrictedRefusal } from '../../core/permissions/restricted.js';
import { offerToTrust } from '../host/workspace-trust.js';
import { RESTRICTED_MODE_NOTICE, type ChatDeps } from './chat-deps.js';
import { configNotice } from './config-notice.js';
import { sessionTitle } from './history-items.js';
import { inertEvent } from './inert-items.js';
import type { ItemQueue } from './item-queue.js';
import type { PanelPlan } from './panel-plan.js';
import { expansionOutcome } from './panel-prompts.js';
import type { PanelTaint } from './panel-taint.js';
import { changesOfTurn } from './turn-changes.js';
import { UsageMeter } from './usage-meter.js';

/** What a turn needs of the panel it runs in (a ChatPanel). */
export interface TurnPanel {
  /** The conversation the panel shows now. */
  conversation(): { agent: string | null; sessionId: string | null; model: string | null };
  readonly queue: ItemQueue;
  readonly plan: PanelPlan;
  readonly taint: PanelTaint;
  /** The turn started or resumed a session: the panel shows it from now on. */
  setSession(sessionId: string): void;
  /** TurnResult.switchTo (spec 6.3): the conversation moves to another agent. */
  switchAgent(agent: string, by: string): Promise<void>;
  focusInput(): void;
  postState(): Promise<void>;
  postCommands(): Promise<void>;
}

/**
 * A chat panel's turns (spec 9.2): one at a time, run through the core with every TurnEvent
 * forwarded to the panel's item queue; the notices said once per panel (Restricted Mode, the
 * configuration's state) and the tokens-and-cost meter.
 */
export class PanelTurns {
  private running: AbortController | null = null;
  private meter: { pepe: Pepe; meter: UsageMeter } | undefined;
  private configNoted: string | null = null;
  private restrictedNoted = false;
  private trustOffered = false;
  /** The result of the last turn that ended (what `ChatPanel.send` resolves with). */
  lastResult: TurnResult | undefined;

  constructor(
    private readonly panel: TurnPanel,
    private readonly deps: ChatDeps,
  ) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** Stops the running turn; false when none runs. */
  stop(): boolean {
    this.running?.abort();
    return this.running !== null;
  }

  dispose(): void {
    this.running?.abort();
    this.meter?.meter.dispose();
  }

  /** The tokens-and-cost meter on this Pepe's usage ledger (a rebuilt Pepe gets a new one). */
  meterFor(pepe: Pepe): UsageMeter {
    if (this.meter?.pepe !== pepe) {
      this.meter?.meter.dispose();
      this.meter = { pepe, meter: new UsageMeter({ onRecord: (listener) => pepe.onUsageRecord(listener), all: () => pepe.usageRecords() }) };
    }
    return this.meter.meter;
  }

  async run(text: string, attachments: TurnAttachment[] = [], images: ImagePart[] = []): Promise<void> {
    if (this.running) return; // the webview disables Send while a turn runs
    const { queue, plan } = this.panel;
    const agent = this.panel.conversation().agent;
    if (!agent) {
      queue.push({ kind: 'notice', level: 'error', text: 'No agent to talk to: add one with Pepe: Add Agent…' });
      return;
    }
    const controller = new AbortController();
    this.running = controller;
    queue.push({ kind: 'user', text, ...(attachments.length ? { attachments: attachments.map((a) => ({ kind: a.kind, label: a.label })) } : {}), ...(images.length ? { images: images.map((i) => ({ label: i.name ?? i.media_type })) } : {}) });
    this.noteRestrictedMode();
    this.noteConfig();
    await this.panel.postState();
    let meter: UsageMeter | undefined;
    try {
      const pepe = await this.deps.getPepe();
      // `/name args` is the prompt file's text; the conversation shows what was typed, and which file it used.
      const expanded = expansionOutcome(text, await pepe.promptExpand(text));
      if (expanded.notice) queue.push(expanded.notice);
      if (expanded.text === null) return;
      meter = this.meterFor(pepe);
      meter.startTurn();
      const { sessionId, model } = this.panel.conversation();
      const result = await pepe.run({
        agent,
        text: expanded.text,
        sessionId: sessionId ?? undefined,
        ...(sessionId ? {} : { sessionTitle: sessionTitle(text) }),
        model: model ?? undefined,
        signal: controller.signal,
        personPresent: true,
        ...(attachments.length ? { attachments } : {}),
        ...(images.length ? { images } : {}),
        metadata: { channel: 'vscode-chat' },
        onEvent: (event) => this.onEvent(event),
        ...plan.turnOptions(),
      });
      this.lastResult = result;
      plan.finished(result);
      this.panel.setSession(result.sessionId);
      // A turn that changed files had a checkpoint taken before it: offer restore and compare.
      const changed = await changesOfTurn(pepe, result.sessionId, result.turnId);
      if (changed) queue.push({ kind: 'checkpoint', sessionId: result.sessionId, turnId: result.turnId, files: changed.files, label: this.deps.core().checkpointLabel(changed.checkpoint) });
      if (result.switchTo) {
        this.running = null;
        await this.panel.switchAgent(result.switchTo, agent);
      }
    } catch (e) {
      // The turn could not start (unknown agent, missing session, a broken config.json).
      queue.push({ kind: 'notice', level: 'error', text: errorMessage(e), retryText: text });
    } finally {
      const usage = meter?.endTurn();
      if (usage) queue.push({ kind: 'usage', usage });
      if (this.running === controller) this.running = null;
      queue.flush();
      await this.panel.postState();
      await this.panel.postCommands();
    }
  }

  private onEvent(event: TurnEvent): void {
    if (event.type === 'turn_start' && event.path.length === 1) this.panel.setSession(event.sessionId);
    if (event.type === 'turn_end' && event.path.length === 1) this.deps.onTurnEnded?.(event.agent, event.status, event.error ?? null);
    // A dialog (the approval, a diff to accept) had the keyboard: the input gets it back.
    if (event.type === 'approval_decided' && event.decision !== null) this.panel.focusInput();
    if (this.panel.taint.onEvent(event)) void this.panel.postState();
    this.meter?.meter.onEvent(event);
    this.panel.queue.push({ kind: 'event', event: inertEvent(event) });
    // Restricted Mode refused a tool: say why and offer the way to trust the folder, once per panel.
    if (event.type === 'tool_result' && event.isError && isRestrictedRefusal(event.content) && !this.trustOffered) {
      this.trustOffered = true;
      void offerToTrust(event.name);
    }
  }

  /** Said once per distinct state: running on the last good configuration, or with sections set aside. */
  private noteConfig(): void {
    const state = this.deps.configState?.();
    const notice = state ? configNotice(state) : null;
    if (!notice || notice.text === this.configNoted) return;
    this.configNoted = notice.text;
    this.panel.queue.push({ kind: 'notice', level: notice.level, text: notice.text });
  }

  /** In an untrusted folder the conversation says so once, before the first turn runs. */
  private noteRestrictedMode(): void {
    if (this.restrictedNoted || this.deps.isTrusted?.() !== false) return;
    this.restrictedNoted = true;
    this.panel.queue.push({ kind: 'notice', level: 'warning', text: RESTRICTED_MODE_NOTICE });
  }
}
