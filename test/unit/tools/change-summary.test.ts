import assert from 'node:assert/strict';
import { blocksAsDiff, countLineChanges, describeCallArgs, describeChange } from '../../../src/protocol/change-summary.js';

describe('a file change said in words', () => {
  it('counts lines added and removed, and the separate places', () => {
    assert.deepEqual(countLineChanges('a\nb\nc\n', 'a\nB\nB2\nB3\nc\n'), { changes: 1, added: 3, removed: 1 });
    assert.deepEqual(countLineChanges('a\nb\nc\nd\ne\n', 'A\nb\nc\nd\nE\n'), { changes: 2, added: 2, removed: 2 });
    assert.deepEqual(countLineChanges('same\n', 'same\n'), { changes: 0, added: 0, removed: 0 });
  });

  it('says the sentence of the approval: edit, create, write', () => {
    assert.equal(describeChange('src/prices.py', 'x = 1\nround(x)\n', 'x = 1\nfrom decimal import Decimal\nq = Decimal(x)\nround(q, 2)\n', false, 'edit_file'), 'edit src/prices.py: 1 change, +3 \u22121');
    assert.equal(describeChange('notes.md', '', 'one\ntwo\n', true, 'write_file'), 'create notes.md: 2 lines');
  });

  it('from the arguments alone: one change per block; other shapes are not described', () => {
    assert.equal(describeCallArgs('edit_file', { path: 'a.ts', edits: [{ search: 'answer = 41', replace: 'answer = 42' }] }), 'edit a.ts: 1 change, +1 \u22121');
    assert.equal(describeCallArgs('write_file', { path: 'n.md', content: 'a\nb\nc' }), 'write n.md: 3 lines');
    assert.equal(describeCallArgs('edit_file', { path: 'a.ts', edits: [{ search: 1 }] }), null);
    assert.equal(describeCallArgs('bash', { command: 'ls' }), null);
    assert.equal(blocksAsDiff({ edits: [{ search: 'old', replace: 'new\nnewer' }] }), '- old\n+ new\n+ newer');
  });
});
