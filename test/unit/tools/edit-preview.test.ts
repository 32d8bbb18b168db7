/**
 * Approvals show a diff, not a string (issue 17): the preview of write_file/edit_file, the line
 * diff under it, and the CLI prompt that prints it coloured, with model text made inert.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { PassThrough } from 'node:stream';
import { TtyPrompter } from '../../../src/cli/tty-prompter.js';
import type { ApprovalRequest } from '../../../src/core/permissions/index.js';
import { previewChange } from '../../../src/core/tools/change-preview.js';
import { diffLines, unifiedDiff } from '../../../src/core/tools/line-diff.js';
import { FileWorld } from './helpers.js';

describe('edit previews and diffs', () => {
  let w: FileWorld;
  beforeEach(() => {
    w = new FileWorld();
  });
  afterEach(() => w.cleanup());

  it('a line diff always rebuilds both sides (random texts)', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const text = () => Array.from({ length: Math.floor(rnd() * 40) }, () => 'abcdef'[Math.floor(rnd() * 6)]).join('\n');
    for (let i = 0; i < 300; i++) {
      const a = text();
      const b = text();
      const d = diffLines(a, b);
      assert.equal(d.filter((l) => l.op !== '+').map((l) => l.text).join('\n'), a);
      assert.equal(d.filter((l) => l.op !== '-').map((l) => l.text).join('\n'), b);
    }
  });

  it('unified hunks with context and line numbers', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\n';
    const after = 'a\nb\nC\nd\ne\nf\ng\nh\ni\nj\n';
    assert.equal(unifiedDiff(before, after, { context: 1 }), ['@@ -2,3 +2,3 @@', ' b', '-c', '+C', ' d', '@@ -9,1 +9,2 @@', ' i', '+j'].join('\n'));
    assert.equal(unifiedDiff('same\n', 'same\n'), '');
  });

  it('previews edit_file as the file before and after; a failing edit says why', async () => {
    writeFileSync(join(w.workspace, 'a.txt'), 'one\r\ntwo\r\n');
    const p = await previewChange('edit_file', { path: 'a.txt', edits: [{ search: 'two', replace: 'deux' }] }, w.ctx());
    assert.deepEqual(p, { kind: 'change', path: 'a.txt', real: join(w.workspace, 'a.txt'), before: 'one\ntwo\n', after: 'one\ndeux\n', created: false });
    const bad = await previewChange('edit_file', { path: 'a.txt', edits: [{ search: 'three', replace: 'x' }] }, w.ctx());
    assert.equal(bad?.kind, 'unavailable');
    const created = await previewChange('write_file', { path: 'new.txt', content: 'hi\n' }, w.ctx());
    assert.equal(created?.kind === 'change' && created.created, true);
    assert.equal(await previewChange('bash', { command: 'ls' }, w.ctx()), null);
  });

  it('the CLI prompt shows a coloured diff, and an escape sequence in the model text stays inert', async () => {
    writeFileSync(join(w.workspace, 'a.txt'), 'hello\n');
    const input = new PassThrough();
    const rl = createInterface({ input, output: new PassThrough(), terminal: false });
    let shown = '';
    const prompter = new TtyPrompter(rl, (t) => void (shown += t), true);
    const request: ApprovalRequest = {
      id: 'abcd1234', agent: 'dev', chain: ['dev'], tool: 'edit_file', cwd: w.workspace,
      args: { path: 'a.txt', edits: [{ search: 'hello', replace: 'bye\x1b[2J' }] },
      riskHints: [], risks: ['write'], summary: 'Edit the file a.txt', why: [], whyText: 'edit_file always asks first', createdAt: new Date().toISOString(),
    };
    const answer = prompter.ask(request);
    // Typed once the prompt is on screen (a line typed before the question is asked is not its answer).
    while (!shown.includes('[o] allow once')) await new Promise((r) => setTimeout(r, 10));
    input.write('o\n');
    assert.deepEqual(await answer, { kind: 'allow_once' });
    rl.close();
    assert.match(shown, /\x1b\[31m {2}-hello\x1b\[0m/);
    assert.match(shown, /\x1b\[32m {2}\+bye/);
    assert.ok(!shown.includes('\x1b[2J'), 'a model-written escape sequence must not reach the terminal');
  });
});
