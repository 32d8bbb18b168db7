import assert from 'node:assert/strict';
import { MAX_ATTACHMENTS, withAttachments } from '../../../src/core/context-attachments.js';
import { PanelAttachments } from '../../../src/extension/chat/attachment-store.js';

/*
 * What a chat panel keeps for the next message: the page sees chips and sends back ids; only
 * content the host gathered under an id it gave out goes to the model.
 */
describe('chat: attachments held for the next message', () => {
  const file = (label: string, content = 'x') => ({ kind: 'file' as const, label, content });

  it('a sent message takes the chips it names, once; ids the host never gave out are ignored', () => {
    const held = new PanelAttachments();
    const a = held.add(file('a.ts', 'AAA'));
    held.add(file('b.ts', 'BBB'));
    const taken = held.take([a.id, 'forged-id', a.id]);
    assert.deepEqual(taken.map((t) => t.content), ['AAA']);
    assert.deepEqual(held.chips.map((c) => c.label), ['b.ts'], 'the other chip stays for a later message');
    assert.deepEqual(held.take(undefined), []);
  });

  it('the same context twice is one chip; removing a chip drops it', () => {
    const held = new PanelAttachments();
    held.add(file('a.ts', 'old'));
    const again = held.add(file('a.ts', 'new'));
    assert.equal(held.chips.length, 1);
    assert.equal(held.take([again.id])[0]!.content, 'new');
    const c = held.add({ kind: 'problems', label: 'Problems', content: '' });
    held.remove(c.id);
    assert.equal(held.chips.length, 0);
  });

  it(`at most ${MAX_ATTACHMENTS}, and a long label is cut so the turn accepts it`, () => {
    const held = new PanelAttachments();
    for (let i = 0; i < MAX_ATTACHMENTS; i++) held.add(file(`f${i}`));
    assert.throws(() => held.add(file('one-more')), /at most 20/);
    held.clear();
    const chip = held.add(file(`${'deep/'.repeat(200)}a.ts`));
    const [taken] = held.take([chip.id]);
    assert.ok(taken!.label.length <= 500 && taken!.label.endsWith('a.ts'));
    assert.doesNotThrow(() => withAttachments('hi', [taken!]));
  });
});

describe('chat: a stored message with attached context, shown again', () => {
  it('shows the text and the attachments as chips, not the raw blocks', async () => {
    const { historyItems } = await import('../../../src/extension/chat/history-items.js');
    const stored = withAttachments('what does it say?', [{ kind: 'file', label: 'notes.md', content: 'hello' }, { kind: 'selection', label: 'a.ts:1-2', content: 'x' }]);
    const [item] = historyItems('a', [{ role: 'user', content: stored }]);
    assert.deepEqual(item, { kind: 'user', text: 'what does it say?', attachments: [{ kind: 'file', label: 'notes.md' }, { kind: 'selection', label: 'a.ts:1-2' }] });
    const plain = historyItems('a', [{ role: 'user', content: 'just text' }])[0];
    assert.deepEqual(plain, { kind: 'user', text: 'just text' });
  });
});
