import assert from 'node:assert/strict';
import { parseHostMessage, parseWebviewMessage } from '../../../src/protocol/messages.js';

describe('the webview protocol pairs requests with replies (requestId)', () => {
  it('list_sessions → sessions and copy → copied carry the id both ways; unasked replies carry none', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'list_sessions', requestId: 'r1' }), { ok: true, value: { type: 'list_sessions', requestId: 'r1' } });
    assert.deepEqual(parseWebviewMessage({ type: 'copy', text: 'x', requestId: 'r2' }), { ok: true, value: { type: 'copy', text: 'x', requestId: 'r2' } });
    assert.equal(parseHostMessage({ type: 'sessions', sessions: [], requestId: 'r1' }).ok, true);
    assert.equal(parseHostMessage({ type: 'sessions', sessions: [] }).ok, true, 'the list sent after a rename or a delete');
    assert.equal(parseHostMessage({ type: 'copied', requestId: 'r2' }).ok, true);
  });

  it('an id that is empty, too long or not a string is refused at the boundary', () => {
    for (const requestId of ['', 'x'.repeat(65), 7, null]) {
      assert.equal(parseWebviewMessage({ type: 'list_sessions', requestId }).ok, false, JSON.stringify(requestId));
      assert.equal(parseHostMessage({ type: 'copied', requestId }).ok, false, JSON.stringify(requestId));
    }
  });

});
