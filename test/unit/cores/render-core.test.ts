import assert from 'node:assert/strict';
import { TerminalRenderer } from '../../../src/cli/render.js';

describe('agent cores in the terminal (pepe run, pepe chat)', () => {
  const render = (event: unknown) => {
    let err = '';
    const r = new TerminalRenderer(() => undefined, (t) => (err += t));
    r.handle({ type: 'core', path: ['a'], event } as never);
    return err;
  };

  it('shows soft failures with file and line, notices, progress, input deliveries and spawned tasks; not hard failures (the turn error says it)', () => {
    assert.equal(render({ type: 'core_slot_failed', phase: 'input', slotId: 'x', policy: 'soft', message: 'boom', timedOut: false, file: '/c/agent/input/x/module.ts', line: 3 }), '⚠ input slot "x" failed (soft, the turn goes on): boom (/c/agent/input/x/module.ts:3)\n');
    assert.equal(render({ type: 'core_slot_failed', phase: 'input', slotId: 'x', policy: 'hard', message: 'boom', timedOut: false }), '');
    assert.equal(render({ type: 'core_notice', slotId: 'y', text: 'hello' }), 'ℹ y: hello\n');
    assert.equal(render({ type: 'core_progress', slotId: 'y', text: 'half' }), '… y: half\n');
    assert.equal(render({ type: 'core_sent', phase: 'input', slotId: 'y', text: 'first', visible: true }), '» first\n');
    assert.equal(render({ type: 'core_task', taskId: 't1', agent: 'b', status: 'running' }), '⇢ child agent b (task t1): running\n');
  });

  it('a control sequence in slot text is shown inert', () => {
    assert.equal(render({ type: 'core_notice', slotId: 'y', text: 'a\u001b[2Jb\u0007' }), 'ℹ y: a\\x1b[2Jb\\x07\n');
  });
});
