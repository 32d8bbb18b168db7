/**
 * edit_file and checkpoints through the real CLI bundle (issue 17): a scripted model edits files
 * (good blocks, a block with no match, one with several, a CRLF file, a Latin-1 file), the turn's
 * checkpoint is listed, compared and restored, and a restore brings back a deleted file.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '../helpers/agents.js';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

describe('pepe: edit_file and checkpoints', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());
  const inWs = (...args: string[]) => pepeCli(home.dir, args, {}, home.workspace);

  it('edits, clear errors, CRLF kept, non-UTF-8 refused; then list, diff and restore the checkpoint', async () => {
    const ws = home.workspace;
    writeFileSync(join(ws, 'app.ts'), 'const a = 1;\nconst b = 2;\nconst b = 2;\n');
    writeFileSync(join(ws, 'win.txt'), 'alpha\r\nbeta\r\n');
    const latin1 = Buffer.from('na\xefve\n', 'latin1');
    writeFileSync(join(ws, 'old.txt'), latin1);
    writeFileSync(join(ws, 'doomed.txt'), 'keep me\n');
    const edit = (path: string, search: string, replace: string) => ({ name: 'edit_file', arguments: { path, edits: [{ search, replace }] } });
    const model = script(home, 'dev', [
      {
        tool_calls: [
          edit('app.ts', 'const a = 1;', 'const a = 10;'),
          edit('app.ts', 'const z = 0;', 'x'),
          edit('app.ts', 'const b = 2;', 'const b = 3;'),
          edit('win.txt', 'beta', 'gamma'),
          edit('old.txt', 'na', 'ne'),
        ],
      },
      { text: 'edited' },
    ]);
    home.writeConfig({ agents: { dev: { model, auto_approve: ['edit_file'] } } });
    const r = await inWs('run', 'dev', 'edit please', '--json');
    assert.equal(r.exitCode, 0, r.stderr);
    const results = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'tool_result');
    assert.equal(results.length, 5);
    assert.match(results[0].content, /^edited app\.ts: 1 block applied/);
    assert.match(results[1].content, /not found in app\.ts/);
    assert.match(results[2].content, /matches 2 times in app\.ts \(at lines 2, 3\)/);
    assert.match(results[3].content, /CRLF line ends kept/);
    assert.match(results[4].content, /old\.txt is not valid UTF-8/);
    assert.equal(readFileSync(join(ws, 'app.ts'), 'utf8'), 'const a = 10;\nconst b = 2;\nconst b = 2;\n');
    assert.equal(readFileSync(join(ws, 'win.txt'), 'utf8'), 'alpha\r\ngamma\r\n');
    assert.deepEqual(readFileSync(join(ws, 'old.txt')), latin1);

    // One checkpoint, taken before the turn's first edit.
    const list = JSON.parse((await inWs('checkpoints', 'list', '--json')).stdout);
    assert.equal(list.length, 1);
    assert.equal(list[0].agent, 'dev');
    assert.equal(list[0].reason, 'turn');
    const id = list[0].id.slice(0, 8);

    rmSync(join(ws, 'doomed.txt'));
    const stat = await inWs('checkpoints', 'diff', id, '--stat');
    assert.match(stat.stdout, /modified +app\.ts/);
    assert.match(stat.stdout, /deleted +doomed\.txt/);
    const diff = await inWs('checkpoints', 'diff', id);
    assert.match(diff.stdout, /-const a = 1;\n\+const a = 10;/);

    const restored = await inWs('checkpoints', 'restore', id);
    assert.equal(restored.exitCode, 0, restored.stderr);
    assert.match(restored.stdout, /undo with: pepe checkpoints restore [0-9a-f]{12}/);
    assert.equal(readFileSync(join(ws, 'doomed.txt'), 'utf8'), 'keep me\n');
    assert.equal(readFileSync(join(ws, 'app.ts'), 'utf8'), 'const a = 1;\nconst b = 2;\nconst b = 2;\n');
    assert.equal(readFileSync(join(ws, 'win.txt'), 'utf8'), 'alpha\r\nbeta\r\n');
    assert.equal(existsSync(join(ws, '.git')), false, 'no repository is created in the workspace');

    const bad = await inWs('checkpoints', 'restore', 'ffffffff');
    assert.equal(bad.exitCode === 0, false);
    assert.match(bad.stderr, /no checkpoint ffffffff/);
  });

  it('a turn that only talks takes no checkpoint', async () => {
    home.writeConfig({ agents: { dev: { model: 'mock' } } });
    assert.equal((await inWs('run', 'dev', 'hi')).exitCode, 0);
    assert.match((await inWs('checkpoints', 'list')).stdout, /no checkpoints/);
  });
});
