import { visible } from '../core/display.js';
import type { TurnEvent } from '../core/events.js';

/** Answer text keeps tabs, newlines and emoji joiners; escapes, CR, C1 and bidi controls are shown as escapes. */
const ANSWER_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const inertAnswer = (text: string) => text.replace(/\r\n/g, '\n').replace(ANSWER_CONTROLS, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);

const short = (value: unknown, max = 160) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

/** "using AGENTS.md, .github/copilot-instructions.md (cut)": the instruction files a turn was given. */
export function instructionsUsed(e: Extract<TurnEvent, { type: 'instructions' }>): string {
  const names = e.files.map((f) => (f.cut ? `${f.name} (cut)` : f.name));
  return `using ${names.join(', ') || 'no instruction file'}${e.leftOut.length ? `; left out, over the total cap: ${e.leftOut.join(', ')}` : ''}`;
}

/**
 * Renders turn events for a terminal: the answer streams to stdout; tool calls, approvals,
 * fallbacks and routed calls go to stderr as short indented lines, nested by route depth.
 */
export class TerminalRenderer {
  private atLineStart = true;

  constructor(
    private readonly out: (text: string) => void,
    private readonly err: (text: string) => void,
    /** `--verbose`: also which project instruction files the model was given. */
    private readonly options: { verbose?: boolean } = {},
  ) {}

  handle(e: TurnEvent): void {
    const depth = e.path.length - 1;
    const pad = '  '.repeat(depth);
    // Tool arguments, command output and error texts may carry what a model, a web page or a
    // project file wrote: every line is made visible and inert before it reaches the terminal.
    const note = (text: string) => {
      if (!this.atLineStart) this.out('\n');
      this.atLineStart = true;
      this.err(`${pad}${visible(text)}\n`);
    };
    switch (e.type) {
      case 'assistant_delta':
        if (depth > 0) return; // a routed callee's answer comes back as its tool result
        this.out(inertAnswer(e.text));
        this.atLineStart = e.text.endsWith('\n');
        return;
      case 'tool_call':
        return note(`⚙ ${e.name} ${short(e.arguments)}`);
      case 'tool_result':
        return note(`${e.isError ? '✗' : '✓'} ${e.name}: ${short(e.content.split('\n').slice(0, 3).join(' ⏎ '))}`);
      case 'approval_decided':
        return note(`${e.allowed ? '✔' : '⛔'} ${e.tool}: ${e.allowed ? 'allowed' : 'refused'} (${e.by}${e.decision ? `: ${e.decision}` : ''})`);
      case 'approval_followup':
        for (const item of e.items) {
          note(`↻ parked ${item.tool} ${short(item.arguments)} ${item.status === 'denied' ? 'was denied' : `was approved and ${item.status === 'ran' ? 'ran' : 'failed'}`}`);
          if (item.status !== 'denied') for (const line of item.content.split('\n').slice(0, 12)) if (line) note(`  │ ${line}`);
        }
        return;
      case 'slot_fallback':
        return note(`↩ ${e.slot} answered by ${e.outcome === 'builtin' ? 'the built-in' : e.outcome}: ${e.occupant} ${e.reason} (${e.detail})`);
      case 'model_fallback':
        return note(`↩ model ${e.from} failed (${e.error})${e.to ? `; trying ${e.to}` : ''}`);
      case 'route_call':
        return note(e.phase === 'start' ? `→ ${e.chain.join(' → ')}` : `← ${e.to} answered`);
      case 'instructions':
        if (this.options.verbose) note(`ℹ ${instructionsUsed(e)}`);
        return;
      case 'compaction':
        return note(`⇣ compacted the conversation (${e.before} → ${e.after} messages, by ${e.by})`);
      case 'core':
        return this.core(e.event, note);
      case 'error':
        return note(`! ${e.message}`);
      case 'turn_end':
        if (depth === 0 && !this.atLineStart) {
          this.out('\n');
          this.atLineStart = true;
        }
        return;
      default:
        return;
    }
  }

  /** An agent core's soft failures, notices, progress and input deliveries (hard failures end the turn as an error). */
  private core(c: Extract<TurnEvent, { type: 'core' }>['event'], show: (text: string) => void): void {
    // Slot text may carry what a model or a web page wrote: no control character reaches the terminal raw.
    const note = (text: string) => show(text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`));
    switch (c.type) {
      case 'core_slot_failed':
        if (c.policy === 'hard') return;
        return note(`⚠ ${c.phase} slot "${c.slotId}" failed (soft, the turn goes on): ${c.message}${c.file ? ` (${c.file}${c.line ? `:${c.line}` : ''})` : ''}`);
      case 'core_notice':
        return note(`ℹ ${c.slotId ? `${c.slotId}: ` : ''}${c.text}`);
      case 'core_progress':
        return note(`… ${c.slotId}: ${c.text}`);
      case 'core_sent':
        if (c.visible) note(`» ${c.text}`);
        return;
      case 'core_restricted':
        return note(`⚠ ${c.reason}`);
      case 'core_return_ignored':
        return note(`ℹ ${c.phase} slot "${c.slotId}" returned a ${c.valueType}; return values are ignored (use the ctx clients)`);
      case 'core_task':
        return note(`${c.status === 'running' ? '⇢' : '⇠'} child agent ${c.agent} (task ${c.taskId}): ${c.status}${c.error ? `: ${c.error}` : ''}`);
      default:
        return;
    }
  }
}
