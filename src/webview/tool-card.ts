/// <reference lib="dom" />
import { h, icon } from './dom.js';
import { blocksAsDiff, describeCallArgs } from '../protocol/change-summary.js';

const TRUNCATE_LINES = 30;
const TRUNCATE_CHARS = 4000;

type Status = 'running' | 'approval' | 'ok' | 'error' | 'denied' | 'unfinished';
const STATUS: Record<Status, { icon: string; text: string }> = {
  running: { icon: 'loading', text: 'running' },
  approval: { icon: 'shield', text: 'waiting for your approval' },
  ok: { icon: 'pass', text: 'done' },
  error: { icon: 'error', text: 'failed' },
  denied: { icon: 'circle-slash', text: 'not run' },
  unfinished: { icon: 'circle-slash', text: 'did not finish' },
};

/**
 * A tool call as a collapsible card (native <details>: keyboard and screen-reader friendly): the
 * arguments, the live status, approval outcomes and the result (long output truncated, "Show all").
 * A `send_to_agent` card also holds the callee's own steps (`steps`), nested.
 */
export class ToolCard {
  readonly el: HTMLDetailsElement;
  /** The callee's run renders here (send_to_agent only). */
  readonly steps: HTMLElement | null;
  private readonly statusEl: HTMLElement;
  private readonly body: HTMLElement;
  private status: Status = 'running';
  routeBound = false;
  decided = false;

  constructor(readonly id: string, readonly name: string, readonly args: unknown) {
    const routed = name === 'send_to_agent' ? routeTarget(args) : null;
    this.statusEl = h('span', { class: 'card-status' });
    const title = routed !== null ? h('span', { class: 'card-title' }, icon('arrow-right'), ` ${routed}`) : h('span', { class: 'card-title' }, icon('tools'), ` ${name}`);
    const summary = h('summary', { class: 'card-summary' }, title, h('span', { class: 'card-brief' }, brief(name, args)), this.statusEl);
    this.body = h('div', { class: 'card-body' });
    if (routed !== null) {
      const message = isRecord(args) && typeof args.message === 'string' ? args.message : JSON.stringify(args);
      this.body.append(h('div', { class: 'label' }, 'Message'), h('div', { class: 'route-message' }, message));
      this.steps = h('div', { class: 'route-steps', role: 'group', 'aria-label': `${routed}'s steps` });
      this.body.append(this.steps);
    } else {
      this.steps = null;
      // A file change in words and as diff lines, not as the call's JSON (issue 26).
      const change = describeCallArgs(name, args);
      const lines = name === 'edit_file' ? blocksAsDiff(args) : null;
      if (change) this.body.append(h('div', { class: 'card-change', 'data-kind': 'change-summary' }, icon('diff'), ` ${change}`));
      if (lines !== null) this.body.append(h('pre', { class: 'card-args card-diff' }, lines));
      else if (change && name === 'write_file' && isRecord(args)) this.body.append(h('div', { class: 'label' }, 'Content'), h('pre', { class: 'card-args' }, String(args.content)));
      else this.body.append(h('div', { class: 'label' }, 'Arguments'), h('pre', { class: 'card-args' }, formatArgs(name, args)));
    }
    this.el = h('details', { class: `card ${routed !== null ? 'route' : 'tool'}`, 'data-tool': name, 'data-call-id': id, open: true }, summary, this.body);
    this.setStatus('running');
  }

  get target(): string | null {
    return this.name === 'send_to_agent' ? routeTarget(this.args) : null;
  }

  get finished(): boolean {
    return this.status !== 'running' && this.status !== 'approval';
  }

  setStatus(status: Status, text?: string): void {
    this.status = status;
    const s = STATUS[status];
    this.el.dataset.status = status;
    this.statusEl.replaceChildren(icon(s.icon, status === 'running' ? 'codicon-modifier-spin' : ''), ` ${text ?? s.text}`);
  }

  approvalAsked(summary: string): void {
    this.setStatus('approval');
    // A file change is asked on a diff (or the modal): the card says the change in words, not the core's summary.
    const change = FILE_TOOLS.has(this.name) ? describeCallArgs(this.name, this.args) : null;
    const text = change ? `Approval asked: ${change}.` : `Approval asked: ${summary}`;
    this.body.append(h('div', { class: 'approval asked' }, icon('shield'), ` ${text}`));
  }

  approvalDecided(text: string, allowed: boolean): void {
    this.decided = true;
    this.setStatus(allowed ? 'running' : 'denied');
    this.body.append(h('div', { class: `approval ${allowed ? 'allowed' : 'denied'}`, role: 'status' }, icon(allowed ? 'check' : 'circle-slash'), ` ${text}`));
  }

  result(content: string, isError: boolean, untrusted: boolean): void {
    const exit = /^exit status (\d+|[A-Z]+)\n?/.exec(content);
    const denied = this.status === 'denied' || /^(denied|not run|refused|the user denied)/i.test(content);
    this.setStatus(denied ? 'denied' : isError || (exit && exit[1] !== '0') ? 'error' : 'ok', denied ? 'not run' : exit ? `exit status ${exit[1]}` : undefined);
    const output = exit ? content.slice(exit[0].length) : content;
    const head = h('div', { class: 'label' }, 'Result', untrusted ? h('span', { class: 'badge warning', title: 'Outside content: treat it as untrusted' }, 'untrusted') : null);
    if (exit) head.append(h('span', { class: `badge exit ${exit[1] === '0' ? 'ok' : 'error'}`, 'data-exit': exit[1] }, `exit status ${exit[1]}`));
    const pre = h('pre', { class: 'card-output' });
    const box = h('div', { class: 'card-result' }, head, pre);
    const lines = output.split('\n');
    if (output.length > TRUNCATE_CHARS || lines.length > TRUNCATE_LINES) {
      const shown = lines.slice(0, TRUNCATE_LINES).join('\n').slice(0, TRUNCATE_CHARS);
      pre.textContent = `${shown}\n…`;
      const more = h('button', { type: 'button', class: 'text-button', 'data-action': 'show-all' }, `Show all (${lines.length} lines, ${output.length} characters)`);
      more.addEventListener('click', () => {
        pre.textContent = output;
        more.remove();
      });
      box.append(more);
    } else {
      pre.textContent = output;
    }
    this.body.append(box);
    // Quiet tools collapse once done; a file change stays open for its links.
    if (this.steps === null && !isError && !exit && !FILE_TOOLS.has(this.name)) this.el.open = false;
  }

  routeEnded(result: string | undefined, isError: boolean): void {
    if (isError) this.setStatus('error', 'could not answer');
    void result; // the tool_result that follows carries the same text
  }

  /**
   * write_file / edit_file: a link that opens the file and, in a live turn, "Show changes" (the
   * file's diff since the checkpoint before the turn). The host opens only workspace files.
   */
  linkFile(turn: { sessionId: string; turnId: string } | null): void {
    if (!FILE_TOOLS.has(this.name) || !isRecord(this.args) || typeof this.args.path !== 'string' || !this.args.path) return;
    const path = this.args.path;
    const links = h(
      'div',
      { class: 'card-links' },
      h('button', { type: 'button', class: 'text-button', 'data-action': 'open-file', 'data-path': path, title: `Open ${path}` }, icon('go-to-file'), ' Open ', h('span', { class: 'card-path' }, path)),
      turn ? h('button', { type: 'button', class: 'text-button', 'data-action': 'show-change', 'data-path': path, 'data-session': turn.sessionId, 'data-turn': turn.turnId, title: `The changes to ${path} since before this turn` }, icon('diff'), ' Show changes') : null,
    );
    this.body.prepend(links);
  }

  unfinished(): void {
    if (!this.finished) this.setStatus('unfinished');
  }
}

const FILE_TOOLS = new Set(['write_file', 'edit_file']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function routeTarget(args: unknown): string {
  return isRecord(args) && typeof args.to === 'string' ? args.to : '?';
}

function brief(name: string, args: unknown): string {
  if (!isRecord(args) || name === 'send_to_agent') return '';
  const change = describeCallArgs(name, args);
  if (change) return change.length > 80 ? `${change.slice(0, 79)}…` : change;
  const pick = name === 'bash' ? args.command : name === 'run_script' ? args.program : (args.path ?? args.query ?? args.target ?? args.to);
  const text = typeof pick === 'string' ? pick : '';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function formatArgs(name: string, args: unknown): string {
  if (name === 'bash' && isRecord(args) && typeof args.command === 'string') {
    const rest = Object.fromEntries(Object.entries(args).filter(([k]) => k !== 'command'));
    return `$ ${args.command}${Object.keys(rest).length ? `\n${JSON.stringify(rest, null, 2)}` : ''}`;
  }
  return JSON.stringify(args, null, 2) ?? '';
}
