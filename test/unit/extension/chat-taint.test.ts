import assert from 'node:assert/strict';
import { hasHiddenCharacters } from '../../../src/core/display.js';
import { PanelTaint } from '../../../src/extension/chat/panel-taint.js';
import { inertEvent } from '../../../src/extension/chat/inert-items.js';
import { HostMessageSchema, WebviewMessageSchema } from '../../../src/protocol/messages.js';
import { TurnEventSchema } from '../../../src/protocol/turn-event.js';
import { TempHome } from '../helpers/home.js';

/** The chat header's "outside content read: pre-approvals paused" badge and its "Trust again" (spec 5.3). */
describe('chat panel: outside content in the header, trusted again by the person', () => {
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
    home.writeConfig({ agents: { a: { model: 'mock' } } });
  });
  afterEach(() => home.cleanup());

  it('reads the session, follows taint events of its own agent only, and clears it through the core', async () => {
    const pepe = await home.pepe({ workspace: home.workspace });
    const id = pepe['sessions'].create('a');
    pepe['sessions'].appendTaint('a', id, { sources: ['web_search'] });
    const taint = new PanelTaint();
    assert.deepEqual(taint.current(pepe, 'a', id), ['web_search']);
    assert.equal(taint.onEvent({ type: 'taint', path: ['a', 'b'], sources: ['routed callee'] }), false, "a routed callee's event is not the panel's conversation");
    assert.equal(taint.onEvent({ type: 'taint', path: ['a'], sources: ['web_search', 'read_file /etc/x\u202e'] }), true);
    const shown = taint.current(pepe, 'a', id);
    assert.equal(shown.length, 2);
    assert.ok(!shown.some(hasHiddenCharacters), 'sources are shown inert');
    assert.match(taint.trust(pepe, 'a', id, false), /trusted this conversation again/);
    assert.deepEqual(taint.current(pepe, 'a', id), []);
    taint.forget();
    assert.deepEqual(taint.current(pepe, 'a', id), [], 'the session file says so too');
    assert.match(taint.trust(pepe, 'a', id, false), /Nothing to trust/);
    assert.match(taint.trust(pepe, 'a', null, false), /Nothing to trust/);
  });

  it('the protocol carries the header state and the trust request; the taint event is inert and valid', () => {
    const state = { panelId: 'p', agent: 'a', sessionId: 's', model: null, tier: null, project: null, busy: false, outsideContent: ['web_search'] };
    assert.equal(HostMessageSchema.safeParse({ type: 'state', state }).success, true);
    assert.equal(WebviewMessageSchema.safeParse({ type: 'trust_session' }).success, true);
    const out = inertEvent({ type: 'taint', path: ['a'], sources: ['MCP ev\x1b[2K'] });
    assert.equal(TurnEventSchema.safeParse(out).success, true);
    assert.ok(out.type === 'taint' && !out.sources.some(hasHiddenCharacters));
  });
});
