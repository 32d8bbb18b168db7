/// <reference lib="dom" />
import type { ChatItem } from '../protocol/messages.js';
import type { TurnEvent, TurnEventOf } from '../protocol/turn-event.js';
import { h, icon } from './dom.js';
import type { Frames } from './frames.js';
import { AssistantMessage } from './streaming-message.js';
import { ToolCard } from './tool-card.js';
import { sentImages } from './image-attach.js';
import { ScrollFollow } from './scroll-follow.js';
import { failureNotice } from './failure-notice.js';
import { changedText, coreText, decisionText, fallbackText, usageText } from './event-texts.js';

/** Items rendered per slice before yielding to the browser (a long history is spread over frames). */
const SLICE_MS = 8;

/** The events of one agent's run (the top-level turn, or a routed callee inside its card). */
class RunView {
  message: AssistantMessage | null = null;
  readonly cards = new Map<string, ToolCard>();
  readonly approvals = new Map<string, ToolCard>();
  /** The turn's fatal error, said once by its turn_end (with Retry) instead of once per event. */
  fatal: string | null = null;
  /** The turn, when its turn_start was seen (a live turn): file cards link to its changes. */
  turn: { sessionId: string; turnId: string } | null = null;

  constructor(readonly el: HTMLElement, readonly agent: string) {}

  latestCard(predicate: (c: ToolCard) => boolean): ToolCard | undefined {
    return [...this.cards.values()].reverse().find(predicate);
  }
}

/**
 * Renders chat items into the transcript, incrementally: each item appends to or updates the
 * nodes of its own run (found by the event's `path`); nothing already rendered is rebuilt.
 * Routed runs (`send_to_agent`) render inside the caller's card for that call.
 */
export class Transcript {
  private runs = new Map<string, RunView>();
  private lastUserText: string | null = null;
  private queue: ChatItem[] = [];
  private draining = false;
  /** Keeps the newest content in view unless the person scrolled up (then "Jump to latest"). */
  readonly follow: ScrollFollow;
  /** Called with the text of a failed turn when the person presses Retry. */
  readonly retryTexts = new WeakMap<HTMLElement, string>();

  constructor(readonly root: HTMLElement, private readonly frames: Frames) {
    this.follow = new ScrollFollow(root, frames);
  }

  clear(): void {
    this.queue = [];
    this.runs.clear();
    this.lastUserText = null;
    this.root.replaceChildren();
    this.follow.jump();
  }

  /** Queues items; they are rendered in time slices, in order. */
  add(items: readonly ChatItem[]): void {
    this.queue.push(...items);
    if (!this.draining) this.drain();
  }

  private drain(): void {
    this.draining = true;
    const started = performance.now();
    let i = 0;
    while (i < this.queue.length && performance.now() - started < SLICE_MS) this.render(this.queue[i++]!);
    this.queue.splice(0, i);
    this.frames.request();
    if (this.queue.length) setTimeout(() => this.drain(), 0);
    else this.draining = false;
  }

  private render(item: ChatItem): void {
    switch (item.kind) {
      case 'user':
        this.runs.clear();
        this.lastUserText = item.text;
        this.root.append(
          h(
            'article',
            { class: 'msg user', 'aria-label': 'You said' },
            h('div', { class: 'msg-author' }, icon('account'), ' You'),
            h('div', { class: 'msg-text' }, item.text),
            item.attachments?.length
              ? h('ul', { class: 'attachments sent', 'aria-label': 'Attached context' }, ...item.attachments.map((a) => h('li', { class: 'chip', 'data-kind': a.kind, title: `${a.kind}: ${a.label}` }, icon(ATTACHMENT_ICONS[a.kind] ?? 'file'), h('span', { class: 'chip-label' }, a.label))))
              : null,
            item.images?.length ? sentImages(item.images) : null,
          ),
        );
        return;
      case 'checkpoint': {
        const data = { 'data-session': item.sessionId, 'data-turn': item.turnId };
        this.root.append(
          h(
            'div',
            { class: 'turn-checkpoint', 'data-kind': 'turn-checkpoint', role: 'group', 'aria-label': changedText(item.files), title: item.label ? `Checkpoint ${item.label}` : undefined },
            icon('history'),
            ` ${changedText(item.files)}. `,
            h('button', { type: 'button', class: 'text-button', 'data-action': 'restore-turn', ...data, title: 'Bring the workspace back to how it was before this turn (asks first; can be undone)' }, icon('discard'), ' Restore to before this turn'),
            h('button', { type: 'button', class: 'text-button', 'data-action': 'compare-turn', ...data, title: 'Show every change since before this turn' }, icon('diff'), ' Compare with before this turn'),
          ),
        );
        return;
      }
      case 'notice':
        this.root.append(item.level === 'error' && item.retryText !== undefined ? this.failureFor(item.text, item.retryText) : this.notice(item.level, item.text, item.retryText));
        return;
      case 'event':
        return this.event(item.event);
      case 'usage':
        this.root.append(h('div', { class: 'turn-usage', 'data-kind': 'turn-usage', role: 'note', 'aria-label': `This turn: ${usageText(item.usage)}` }, icon('pulse'), ` This turn: ${usageText(item.usage)}`));
        return;
    }
  }

  private event(e: TurnEvent): void {
    switch (e.type) {
      case 'turn_start': {
        const run = e.path.length === 1 ? this.newTurn(e.path, e.agent) : this.run(e.path);
        run.turn = { sessionId: e.sessionId, turnId: e.turnId };
        return;
      }
      case 'assistant_delta': {
        const run = this.run(e.path);
        if (!run.message) {
          run.message = new AssistantMessage(run.agent, this.frames);
          run.el.append(run.message.el);
        }
        run.message.append(e.text);
        return;
      }
      case 'assistant_message': {
        const run = this.run(e.path);
        if (run.message) run.message.finish(e.content);
        else if (e.content) {
          const m = new AssistantMessage(run.agent, this.frames);
          run.el.append(m.el);
          m.finish(e.content);
        }
        run.message = null;
        return;
      }
      case 'tool_call': {
        const run = this.run(e.path);
        this.endMessage(run);
        const card = new ToolCard(e.id, e.name, e.arguments);
        card.linkFile(run.turn);
        run.cards.set(e.id, card);
        run.el.append(card.el);
        return;
      }
      case 'approval_requested': {
        const run = this.run(e.path);
        const card = run.latestCard((c) => c.name === e.tool && !c.finished && !c.decided);
        if (!card) return void run.el.append(this.notice('info', `Approval asked for ${e.tool}: ${e.summary}`));
        run.approvals.set(e.id, card);
        card.approvalAsked(e.summary);
        return;
      }
      case 'approval_decided': {
        const run = this.run(e.path);
        const card = run.approvals.get(e.id) ?? run.latestCard((c) => c.name === e.tool && !c.finished && !c.decided);
        const text = decisionText(e);
        if (card) card.approvalDecided(text, e.allowed);
        else run.el.append(this.notice(e.allowed ? 'info' : 'warning', `${e.tool}: ${text}`));
        return;
      }
      case 'tool_result': {
        const run = this.run(e.path);
        const card = run.cards.get(e.id);
        if (card) card.result(e.content, e.isError, e.untrusted);
        return;
      }
      case 'route_call': {
        const run = this.run(e.path);
        const card = run.latestCard((c) => c.target === e.to && (e.phase === 'end' || !c.routeBound));
        if (e.phase === 'start') {
          const host = card?.steps ?? run.el.appendChild(h('div', { class: 'route-steps standalone', 'aria-label': `${e.to}'s steps` }));
          if (card) card.routeBound = true;
          this.runs.set(key(e.chain), new RunView(host, e.to));
        } else {
          card?.routeEnded(e.result, e.isError === true);
          const callee = this.runs.get(key(e.chain));
          if (callee) this.endRun(callee);
        }
        return;
      }
      case 'slot_fallback':
        return void this.run(e.path).el.append(this.notice(e.outcome === 'builtin' ? 'info' : 'warning', fallbackText(e), undefined, 'slot-fallback'));
      case 'model_fallback':
        // The last model of the chain failing ends the turn: its error is in the turn's failure.
        if (!e.to) return;
        return void this.run(e.path).el.append(this.notice('warning', `Model ${e.from} failed (${e.error}); ${e.to} answers instead.`));
      case 'instructions': {
        const names = e.files.map((f) => (f.cut ? `${f.name} (cut to the size cap)` : f.name));
        const left = e.leftOut.length ? `; left out, over the size cap: ${e.leftOut.join(', ')}` : '';
        return void this.run(e.path).el.append(this.notice('info', `Using ${names.join(', ') || 'no instruction file'}${left}`, undefined, 'instructions-used'));
      }
      case 'compaction':
        return void this.run(e.path).el.append(this.notice('info', `The conversation was condensed (${e.before} → ${e.after} messages, by ${e.by}).`));
      case 'approval_followup':
        for (const item of e.items) this.run(e.path).el.append(this.notice(item.status === 'ran' ? 'info' : 'warning', `Parked ${item.tool} call ${item.status === 'ran' ? 'was approved and ran' : item.status}: ${item.content}`));
        return;
      case 'core':
        if (e.event.type === 'core_sent' && !e.event.visible) return;
        return void this.run(e.path).el.append(this.notice(e.event.type === 'core_slot_failed' ? 'warning' : 'info', coreText(e.event)));
      case 'error': {
        const run = this.run(e.path);
        // A fatal error of the top-level turn is said by its turn_end, once, with Retry.
        if (!e.recoverable && e.path.length === 1) return void (run.fatal = e.message);
        return void run.el.append(this.notice(e.recoverable ? 'warning' : 'error', e.message));
      }
      case 'turn_end':
        return this.turnEnd(e);
    }
  }

  private turnEnd(e: TurnEventOf<'turn_end'>): void {
    const run = this.run(e.path);
    if (run.message) {
      run.message.finish(e.status === 'ok' ? null : run.message.content);
      run.message = null;
    }
    if (e.path.length > 1) return;
    for (const r of this.runs.values()) this.endRun(r);
    const where = run.el;
    switch (e.status) {
      case 'ok':
        break;
      case 'cancelled':
        where.append(this.notice('warning', 'Stopped: the turn was cancelled.', undefined, 'turn-cancelled'));
        break;
      case 'error':
        where.append(this.failure(e.error ?? run.fatal ?? 'The turn failed.'));
        break;
      case 'max_steps':
        where.append(this.notice('warning', `Stopped at the step limit (limits.max_steps).${e.error ? ` ${e.error}` : ''}`));
        break;
      case 'loop_guard':
        where.append(this.notice('warning', `The loop guard stopped repeated tool calls.${e.error ? ` ${e.error}` : ''}`));
        break;
      case 'budget':
        where.append(this.failure(`Stopped before the next model call: it could have gone over a budget (limits.max_cost, or the project's spend cap).${e.error ? ` ${e.error}` : ''}`, 'turn-budget', e.agent));
        break;
    }
    if (run.fatal && e.status !== 'error' && e.status !== 'cancelled') where.append(this.failure(run.fatal));
    run.fatal = null;
    if (e.switchTo) where.append(this.notice('info', `${e.agent} hands the conversation to ${e.switchTo}.`));
  }

  private failureFor(text: string, retryText: string): HTMLElement {
    const saved = this.lastUserText;
    this.lastUserText = retryText;
    const el = this.failure(text);
    this.lastUserText = saved;
    return el;
  }

  /** A failed turn, said once: a known failure as one line with the buttons that fix it, else the text with Retry. */
  private failure(text: string, kind = 'turn-error', agent?: string): HTMLElement {
    return failureNotice(text, { retryText: this.lastUserText ?? undefined, kind, ...(agent ? { agent } : {}), retry: (button, t) => this.retryTexts.set(button, t) });
  }

  private endMessage(run: RunView): void {
    if (!run.message) return;
    run.message.finish(null);
    run.message = null;
  }

  private endRun(run: RunView): void {
    this.endMessage(run);
    for (const card of run.cards.values()) card.unfinished();
  }

  private newTurn(path: readonly string[], agent: string): RunView {
    this.runs.clear();
    const el = h('section', { class: 'turn', 'aria-label': `${agent}'s answer` });
    this.root.append(el);
    const run = new RunView(el, agent);
    this.runs.set(key(path), run);
    return run;
  }

  /** The run an event belongs to; created when the stream did not announce it (history, a lost start). */
  private run(path: readonly string[]): RunView {
    const found = this.runs.get(key(path));
    if (found) return found;
    const agent = path.at(-1) ?? '?';
    if (path.length <= 1) return this.newTurn(path, agent);
    const parent = this.run(path.slice(0, -1));
    const el = parent.el.appendChild(h('div', { class: 'route-steps standalone', 'aria-label': `${agent}'s steps` }));
    const run = new RunView(el, agent);
    this.runs.set(key(path), run);
    return run;
  }

  private notice(level: 'info' | 'warning' | 'error', text: string, retryText?: string, kind?: string): HTMLElement {
    const iconName = level === 'error' ? 'error' : level === 'warning' ? 'warning' : 'info';
    const el = h('div', { class: `notice ${level}`, role: level === 'error' ? 'alert' : 'status', 'data-kind': kind }, icon(iconName), h('span', { class: 'notice-text' }, text));
    if (retryText !== undefined) {
      const retry = h('button', { type: 'button', class: 'text-button', 'data-action': 'retry', 'aria-label': 'Retry: send the message again' }, icon('refresh'), ' Retry');
      this.retryTexts.set(retry, retryText);
      el.append(retry);
    }
    return el;
  }
}

const ATTACHMENT_ICONS: Record<string, string> = { file: 'file', folder: 'folder', problems: 'warning', selection: 'selection', terminal: 'terminal' };

function key(path: readonly string[]): string {
  return path.join('\u0000');
}
