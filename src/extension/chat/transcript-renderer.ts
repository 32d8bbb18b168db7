import type { TurnEvent } from '../../core/runtime/events.js';

/**
 * Renders a turn's events as plain text lines for the transcript channel (the chat webview of
 * issue 7 renders the same events richly). Routed runs are indented by their chain depth.
 */
export class TranscriptRenderer {
  private streaming = false;

  constructor(private readonly append: (text: string) => void) {}

  render(e: TurnEvent): void {
    const pad = '  '.repeat(Math.max(0, e.path.length - 1));
    const line = (text: string) => {
      if (this.streaming) this.append('\n');
      this.streaming = false;
      this.append(text.split('\n').map((l) => pad + l).join('\n') + '\n');
    };
    switch (e.type) {
      case 'turn_start':
        return line(`── ${e.agent} (session ${e.sessionId}, model ${e.model ?? 'chain'}) ──`);
      case 'assistant_delta':
        if (!this.streaming) this.append(`${pad}${e.path.at(-1)}: `);
        this.streaming = true;
        return this.append(e.text);
      case 'assistant_message':
        if (this.streaming) {
          this.append('\n');
          this.streaming = false;
        }
        return;
      case 'tool_call':
        return line(`⚙ ${e.name} ${JSON.stringify(e.arguments)}`);
      case 'approval_requested':
        return line(`? approval asked for ${e.tool}: ${e.summary}`);
      case 'approval_decided':
        return line(`${e.allowed ? '✓' : '✗'} ${e.tool}: ${e.allowed ? 'allowed' : 'denied'} (${e.decision ?? e.by})${e.reason ? `: ${e.reason}` : ''}`);
      case 'approval_followup':
        return line(e.items.map((i) => `↻ parked ${i.tool} ${i.status}: ${i.content}`).join('\n'));
      case 'tool_result':
        return line(`${e.isError ? '✗' : '→'} ${e.name} result${e.untrusted ? ' (untrusted)' : ''}:\n${indent(e.content)}`);
      case 'slot_fallback':
        return line(`! slot ${e.slot}: ${e.occupant} failed (${e.reason}: ${e.detail}); ${e.outcome === 'builtin' ? 'the built-in answered' : e.outcome}`);
      case 'route_call':
        return line(e.phase === 'start' ? `↳ ${e.from} asks ${e.to}` : `↲ ${e.to} answered ${e.from}${e.isError ? ' (error)' : ''}`);
      case 'compaction':
        return line(`⋯ compacted ${e.before} → ${e.after} messages (${e.by})`);
      case 'model_fallback':
        return line(`! model ${e.from} failed (${e.error})${e.to ? `; trying ${e.to}` : ''}`);
      case 'error':
        return line(`✗ ${e.message}`);
      case 'turn_end':
        return line(`── end (${e.status}${e.error ? `: ${e.error}` : ''}${e.switchTo ? `; next message goes to ${e.switchTo}` : ''}) ──`);
    }
  }
}

function indent(text: string): string {
  return text.split('\n').map((l) => `    ${l}`).join('\n');
}
