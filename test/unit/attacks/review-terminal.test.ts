import assert from 'node:assert/strict';
import { TerminalRenderer } from '../../../src/cli/render.js';
import type { TurnEvent } from '../../../src/core/events.js';
import { recordAttacks } from './record.js';

/**
 * Review: what `pepe run` / `pepe chat` print while a turn runs. A command's output (which a web
 * page or a project file may have written: `printf '\e]52;c;…\a'` is on the allow-list) and the
 * model's own tool arguments must not reach the terminal with a raw control sequence: an OSC 52
 * writes the clipboard, `\e[2J` repaints the screen (a fake prompt), a CSI in its one-byte C1
 * form (U+009B) does the same where JSON does not escape it, and bidi overrides reorder text.
 */

const ESC_OR_C1 = /[\u001b\u0080-\u009f\u0007\r\u202a-\u202e\u2066-\u2069]/;

function render(events: Array<Record<string, unknown>>): { out: string; err: string } {
  let out = '';
  let err = '';
  const r = new TerminalRenderer((t) => (out += t), (t) => (err += t));
  for (const e of events) r.handle({ path: ['a'], ...e } as unknown as TurnEvent);
  return { out, err };
}

describe('review: control sequences in what the CLI prints during a turn', () => {
  recordAttacks('terminal output attacks', 'no raw escape, C1 control or bidi override reaches the terminal');
  const hostile = 'ok\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u001b[HAllow? [y/N] \u009b2J\r\u202eexe.sh';

  it('a tool result (command output) is printed inert', () => {
    const { err } = render([{ type: 'tool_result', id: '1', name: 'bash', content: hostile, isError: false, untrusted: false }]);
    assert.doesNotMatch(err, ESC_OR_C1, JSON.stringify(err));
    assert.match(err, /Allow\?/); // still shown, only made inert
  });

  it('tool arguments are printed inert (JSON does not escape C1 or bidi)', () => {
    const { err } = render([{ type: 'tool_call', id: '1', name: 'bash', arguments: { command: `echo \u009b2J\u202e` } }]);
    assert.doesNotMatch(err, ESC_OR_C1, JSON.stringify(err));
  });

  it('a parked call\'s result shown in the follow-up is printed inert', () => {
    const { err } = render([{ type: 'approval_followup', items: [{ tool: 'bash', arguments: { command: 'x' }, status: 'ran', content: hostile }] }]);
    assert.doesNotMatch(err, ESC_OR_C1, JSON.stringify(err));
  });

  it('the answer text keeps newlines, tabs and emoji but loses escapes', () => {
    const { out } = render([{ type: 'assistant_delta', text: `line\tone\n👨\u200d👩\u200d👧 ${hostile}\n` }]);
    assert.doesNotMatch(out, ESC_OR_C1, JSON.stringify(out));
    assert.ok(out.includes('line\tone\n👨\u200d👩\u200d👧'));
  });
});
