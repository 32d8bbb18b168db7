/**
 * Checkpoints in a shadow git repository (issue 17): real git, real files. A restore brings back
 * deleted and changed files and removes files created since; ignored files and the user's own
 * .git are never touched; a hostile .gitattributes cannot change the bytes that come back.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoints.js';

const cleanGitEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
const userGit = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@x', ...args], { cwd, encoding: 'utf8', env: cleanGitEnv() });

describe('checkpoints', () => {
  let root: string;
  let ws: string;
  let home: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'pepe-cp-')));
    ws = join(root, 'ws');
    home = join(root, 'home');
    mkdirSync(ws);
    mkdirSync(home);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a restore brings back a deleted file and a changed one, and removes a file created since', async () => {
    writeFileSync(join(ws, 'keep.txt'), 'original\n');
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'src', 'gone.ts'), 'export const x = 1;\n');
    const cp = await Checkpoints.open(home, ws);
    const before = await cp.create({ reason: 'turn', agent: 'dev', sessionId: 's1', turnId: 't1' });
    rmSync(join(ws, 'src', 'gone.ts'));
    writeFileSync(join(ws, 'keep.txt'), 'changed by the agent\n');
    writeFileSync(join(ws, 'new.txt'), 'created by the agent\n');

    const changes = await cp.changes(before.id.slice(0, 8));
    assert.deepEqual(changes.sort((a, b) => a.path.localeCompare(b.path)), [
      { status: 'modified', path: 'keep.txt' },
      { status: 'added', path: 'new.txt' },
      { status: 'deleted', path: 'src/gone.ts' },
    ]);
    assert.match(await cp.diff(before.id), /-original\n\+changed by the agent/);

    const r = await cp.restore(before.id.slice(0, 10));
    assert.equal(readFileSync(join(ws, 'src', 'gone.ts'), 'utf8'), 'export const x = 1;\n');
    assert.equal(readFileSync(join(ws, 'keep.txt'), 'utf8'), 'original\n');
    assert.equal(existsSync(join(ws, 'new.txt')), false);
    // The restore can be undone: the present was saved first.
    await cp.restore(r.saved.id);
    assert.equal(readFileSync(join(ws, 'new.txt'), 'utf8'), 'created by the agent\n');
    assert.equal(existsSync(join(ws, 'src', 'gone.ts')), false);

    const list = await cp.list();
    assert.equal(list.length, 3);
    assert.equal(list[2]!.agent, 'dev');
    assert.equal(list[0]!.reason, 'restore');
  });

  it('ignored files are neither snapshotted nor touched by a restore', async () => {
    writeFileSync(join(ws, '.gitignore'), 'build/\n*.log\n');
    mkdirSync(join(ws, 'build'));
    writeFileSync(join(ws, 'build', 'out.js'), 'built\n');
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    const cp = await Checkpoints.open(home, ws);
    const c = await cp.create({ reason: 'manual' });
    writeFileSync(join(ws, 'debug.log'), 'log\n');
    writeFileSync(join(ws, 'build', 'out.js'), 'rebuilt\n');
    await cp.restore(c.id);
    assert.equal(readFileSync(join(ws, 'debug.log'), 'utf8'), 'log\n');
    assert.equal(readFileSync(join(ws, 'build', 'out.js'), 'utf8'), 'rebuilt\n');
  });

  it("never touches the user's git: index, HEAD, refs and status are the same after checkpoint and restore", async () => {
    userGit(ws, 'init', '-q');
    writeFileSync(join(ws, 'tracked.txt'), 'v1\n');
    userGit(ws, 'add', 'tracked.txt');
    userGit(ws, 'commit', '-q', '-m', 'first');
    writeFileSync(join(ws, 'tracked.txt'), 'v2 (unstaged)\n');
    writeFileSync(join(ws, 'untracked.txt'), 'u\n');
    const snap = () => ({
      head: userGit(ws, 'rev-parse', 'HEAD'),
      status: userGit(ws, 'status', '--porcelain'),
      refs: userGit(ws, 'for-each-ref'),
      index: readFileSync(join(ws, '.git', 'index')).toString('base64'),
    });
    const before = snap();
    const cp = await Checkpoints.open(home, ws);
    const c = await cp.create({ reason: 'turn' });
    writeFileSync(join(ws, 'tracked.txt'), 'v3 by agent\n');
    await cp.restore(c.id);
    assert.deepEqual(snap(), before);
    assert.equal(existsSync(join(ws, '.git', 'refs', 'pepe')), false);
  });

  it('attack: a .gitattributes asking for CRLF conversion or a filter does not change restored bytes', async () => {
    writeFileSync(join(ws, '.gitattributes'), '* text eol=crlf filter=evil\n');
    writeFileSync(join(ws, 'unix.sh'), '#!/bin/sh\necho hi\n');
    const cp = await Checkpoints.open(home, ws);
    const c = await cp.create({ reason: 'turn' });
    rmSync(join(ws, 'unix.sh'));
    await cp.restore(c.id);
    assert.equal(readFileSync(join(ws, 'unix.sh'), 'utf8'), '#!/bin/sh\necho hi\n');
  });

  it('attack: GIT_DIR and GIT_INDEX_FILE in the environment do not redirect it to the user’s repository', async () => {
    userGit(ws, 'init', '-q');
    writeFileSync(join(ws, 'f.txt'), 'x\n');
    const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = join(ws, '.git');
    process.env.GIT_INDEX_FILE = join(ws, '.git', 'index');
    try {
      const cp = await Checkpoints.open(home, ws);
      await cp.create({ reason: 'turn' });
    } finally {
      if (saved.dir === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved.dir;
      if (saved.index === undefined) delete process.env.GIT_INDEX_FILE;
      else process.env.GIT_INDEX_FILE = saved.index;
    }
    assert.equal(existsSync(join(ws, '.git', 'index')), false, 'the user index must not be created');
    assert.equal(userGit(ws, 'status', '--porcelain'), '?? f.txt\n');
  });

  it('attack: a folder swapped for a link to outside after the checkpoint: the restore writes inside, never through the link', async () => {
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'src', 'a.txt'), 'mine\n');
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const cp = await Checkpoints.open(home, ws);
    const c = await cp.create({ reason: 'turn' });
    rmSync(join(ws, 'src'), { recursive: true });
    symlinkSync(outside, join(ws, 'src'));
    await cp.restore(c.id);
    assert.equal(existsSync(join(outside, 'a.txt')), false, 'nothing written through the link');
    assert.equal(lstatSync(join(ws, 'src')).isDirectory(), true);
    assert.equal(readFileSync(join(ws, 'src', 'a.txt'), 'utf8'), 'mine\n');
  });

  it("Pepe's home inside the workspace is not snapshotted", async () => {
    const inner = join(ws, '.pepe');
    mkdirSync(inner);
    writeFileSync(join(inner, 'config.json'), '{}');
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    const cp = await Checkpoints.open(inner, ws);
    const c = await cp.create({ reason: 'turn' });
    writeFileSync(join(ws, 'b.txt'), 'b\n');
    assert.deepEqual(await cp.changes(c.id), [{ status: 'added', path: 'b.txt' }]);
  });

  it('an unknown or ambiguous id is a clear error', async () => {
    const cp = await Checkpoints.open(home, ws);
    await cp.create({ reason: 'manual' });
    await assert.rejects(cp.restore('deadbeef'), /no checkpoint deadbeef/);
    await assert.rejects(cp.restore('../x'), /not a checkpoint id/);
  });
});
