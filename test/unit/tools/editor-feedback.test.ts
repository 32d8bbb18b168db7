/**
 * The editor's feedback after an edit (issue 25): a host's port reports problems for the file;
 * write_file and edit_file add the new ones to their result, never the old ones, never on a failed
 * call, and a port that breaks adds nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeNewProblems, newProblems, type EditorFeedback, type Problem } from '../../../src/core/tools/editor-feedback.js';
import { editFileTool } from '../../../src/core/tools/edit-file.js';
import { writeFileTool } from '../../../src/core/tools/files.js';
import type { ToolContext } from '../../../src/core/tools/tool.js';
import { FileWorld } from './helpers.js';

const typeError: Problem = { severity: 'error', message: "Type 'string' is not assignable to type 'number'.", line: 1, column: 7, source: 'ts', code: '2322' };
const unused: Problem = { severity: 'warning', message: "'x' is declared but never used.", line: 2, column: 5, source: 'ts', code: '6133' };

/** A port standing in for VS Code: problems before the write, then what the write "caused". */
function fakeEditor(before: Problem[], after: (path: string) => Problem[]): EditorFeedback & { watched: string[]; disposed: number } {
  const port = {
    watched: [] as string[],
    disposed: 0,
    watch(real: string) {
      port.watched.push(real);
      return {
        settle: async () => describeNewProblems('a.ts', newProblems(before, after(real))),
        dispose: () => void port.disposed++,
      };
    },
  };
  return port;
}

describe('editor feedback after a file tool wrote', () => {
  let w: FileWorld;
  beforeEach(() => {
    w = new FileWorld();
  });
  afterEach(() => w.cleanup());

  async function invoke(tool: typeof writeFileTool | typeof editFileTool, args: unknown, editorFeedback?: EditorFeedback) {
    const parsed = tool.input.parse(args) as never;
    const facts = await tool.resolve!(parsed, w.ctx());
    const ctx: ToolContext = { ...w.ctx(facts), ...(editorFeedback ? { editorFeedback } : {}) };
    return tool.execute(parsed, ctx);
  }

  it('only the problems the change brought are named, errors first, positions after the edit', () => {
    const moved = { ...unused, line: 9 };
    assert.deepEqual(newProblems([unused], [moved, typeError]), [typeError]);
    assert.deepEqual(newProblems([typeError], [typeError, { ...typeError, line: 4 }]), [{ ...typeError, line: 4 }], 'a second copy of the same error is new');
    assert.equal(describeNewProblems('a.ts', []), null);
    assert.equal(
      describeNewProblems('a.ts', newProblems([], [unused, typeError])),
      "The editor reports 1 new error and 1 new warning in a.ts after this change:\n- a.ts:1:7 error: Type 'string' is not assignable to type 'number'. (ts 2322)\n- a.ts:2:5 warning: 'x' is declared but never used. (ts 6133)",
    );
    const many = Array.from({ length: 12 }, (_, i) => ({ ...typeError, message: `problem ${i}\n\nwith lines`, line: i + 1 }));
    const text = describeNewProblems('a.ts', many)!;
    assert.match(text, /^The editor reports 12 new errors in a\.ts/);
    assert.match(text, /- a\.ts:1:7 error: problem 0 with lines/);
    assert.match(text, /… and 2 more$/);
  });

  it('write_file and edit_file add the new problems to their result, for the real path they wrote', async () => {
    const editor = fakeEditor([unused], (path) => (readFileSync(path, 'utf8').includes('"one"') ? [unused, typeError] : [unused]));
    let r = await invoke(writeFileTool, { path: 'a.ts', content: 'const n: number = 1;\n' }, editor);
    assert.equal(r.content, 'created a.ts (21 characters)', 'nothing new, nothing added');
    r = await invoke(editFileTool, { path: 'a.ts', edits: [{ search: '= 1', replace: '= "one"' }] }, editor);
    assert.ok(!r.isError, r.content);
    assert.match(r.content, /^edited a\.ts: 1 block applied[^\n]*\n\nThe editor reports 1 new error in a\.ts after this change:\n- a\.ts:1:7 error: Type 'string'/);
    assert.deepEqual(editor.watched, [join(w.workspace, 'a.ts'), join(w.workspace, 'a.ts')]);
    assert.equal(editor.disposed, 2);
  });

  it('a failed call gets nothing added; a port that throws changes nothing; without a port (the CLI) nothing is added', async () => {
    const editor = fakeEditor([], () => [typeError]);
    let r = await invoke(editFileTool, { path: 'missing.ts', edits: [{ search: 'a', replace: 'b' }] }, editor);
    assert.equal(r.isError, true);
    assert.ok(!r.content.includes('The editor reports'), r.content);
    assert.equal(editor.disposed, 1);

    const broken: EditorFeedback = { watch: () => ({ settle: async () => Promise.reject(new Error('boom')), dispose: () => undefined }) };
    r = await invoke(writeFileTool, { path: 'b.ts', content: 'x' }, broken);
    assert.equal(r.content, 'created b.ts (1 characters)');
    const throwing: EditorFeedback = { watch: () => { throw new Error('no editor'); } };
    r = await invoke(writeFileTool, { path: 'c.ts', content: 'y' }, throwing);
    assert.equal(r.content, 'created c.ts (1 characters)');

    writeFileSync(join(w.workspace, 'd.ts'), 'const n = 1;\n');
    r = await invoke(editFileTool, { path: 'd.ts', edits: [{ search: '1', replace: '"x"' }] });
    assert.ok(!r.content.includes('The editor reports'));
  });
});
