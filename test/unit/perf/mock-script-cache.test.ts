import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMockScriptCached } from '../../../src/core/models/mock-script.js';

/** Issue 27: a mock script is read once while unchanged; a changed or broken file is read again. */
describe('mock script cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-mock-cache-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a changed script (even of the same size) is played as it is now; callers get their own copy', () => {
    const file = join(dir, 's.json');
    writeFileSync(file, JSON.stringify({ steps: [{ text: 'aaaa' }] }));
    const first = loadMockScriptCached(file);
    assert.equal(first.steps[0]!.text, 'aaaa');
    (first.steps[0] as { text?: string }).text = 'changed by a caller';
    assert.equal(loadMockScriptCached(file).steps[0]!.text, 'aaaa');
    writeFileSync(file, JSON.stringify({ steps: [{ text: 'bbbb' }] }));
    assert.equal(loadMockScriptCached(file).steps[0]!.text, 'bbbb');
    writeFileSync(file, JSON.stringify({ steps: [{ tool_call: 'typo' }] }));
    assert.throws(() => loadMockScriptCached(file), /mock script/);
    rmSync(file);
    assert.throws(() => loadMockScriptCached(file), /cannot read it/);
  });
});
