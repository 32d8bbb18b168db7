import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FOLDERS_PER_STEP, gitControlChanges, scanGitControl, scanGitControlAsync } from '../../../src/core/sandbox/git-control.js';

describe('git control scan (spec 8.1)', () => {
  let ws: string;
  const put = (p: string, text = '') => {
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
  };
  const gitDir = (dir: string) => {
    put(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    put(join(dir, 'config'), '[core]\n');
    mkdirSync(join(dir, 'objects'), { recursive: true });
    mkdirSync(join(dir, 'refs'), { recursive: true });
  };
  beforeEach(() => {
    ws = mkdtempSync(join(tmpdir(), 'pepe-gitscan-'));
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  it('finds every repository at any depth, node_modules included, and what decides what each runs', () => {
    gitDir(join(ws, '.git'));
    mkdirSync(join(ws, '.git', 'hooks'));
    gitDir(join(ws, '.git', 'modules', 'a', 'b'));
    gitDir(join(ws, 'node_modules', 'x', 'y', '.git'));
    put(join(ws, 'wt', '.git'), 'gitdir: ../.git/worktrees/wt\n');
    put(join(ws, '.git', 'worktrees', 'wt', 'HEAD'), 'x');
    put(join(ws, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    put(join(ws, '.git', 'worktrees', 'wt', 'gitdir'), `${join(ws, 'wt', '.git')}\n`);
    gitDir(join(ws, 'mirror.git'));
    const scan = scanGitControl([ws]);
    for (const p of [
      join(ws, '.git', 'config'),
      join(ws, '.git', 'hooks'),
      join(ws, '.git', 'modules', 'a', 'b', 'config'),
      join(ws, 'node_modules', 'x', 'y', '.git', 'config'),
      join(ws, 'wt', '.git'),
      join(ws, '.git', 'worktrees', 'wt', 'commondir'),
      join(ws, '.git', 'worktrees', 'wt', 'gitdir'),
      join(ws, 'mirror.git', 'config'),
    ]) assert.ok(scan.control.includes(p), p);
    assert.ok(scan.missingHooks.includes(join(ws, 'node_modules', 'x', 'y', '.git', 'hooks')));
    assert.equal(scan.cutOff, null);
  });

  it('does not follow links out of the workspace, and says when a bound cut the scan short', () => {
    const outside = mkdtempSync(join(tmpdir(), 'pepe-gitscan-out-'));
    try {
      gitDir(join(outside, 'r', '.git'));
      symlinkSync(join(outside, 'r'), join(ws, 'link'));
      assert.deepEqual(scanGitControl([ws]).repos, []);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    for (let i = 0; i < 5; i++) mkdirSync(join(ws, `d${i}`));
    assert.match(scanGitControl([ws], { maxFolders: 3 }).cutOff ?? '', /more than 3 folders/);
    mkdirSync(join(ws, 'a', 'b', 'c'), { recursive: true });
    assert.match(scanGitControl([ws], { maxDepth: 2 }).cutOff ?? '', /deeper than 2/);
    // A cut-off scan is said after the command, so the run is tainted (fail closed).
    const cut = scanGitControl([ws], { maxFolders: 3 });
    assert.match(gitControlChanges(cut, cut).join('\n'), /could not be checked completely for git repositories \(more than 3 folders\)/);
  });

  it('the scan a command waits for lets the event loop run while it reads a large workspace, and finds the same', async () => {
    for (let i = 0; i < FOLDERS_PER_STEP * 4; i++) mkdirSync(join(ws, `pkg-${i % 40}`, `d-${i}`), { recursive: true });
    gitDir(join(ws, 'pkg-3', 'd-3', '.git'));
    let done = false;
    let ranDuring = false;
    const scanning = scanGitControlAsync([ws]).then((s) => {
      done = true;
      return s;
    });
    setImmediate(() => (ranDuring = !done));
    const scan = await scanning;
    assert.ok(ranDuring, 'other work ran while the scan was under way');
    const whole = scanGitControl([ws]);
    assert.deepEqual(scan.repos, whole.repos);
    assert.deepEqual(scan.control, whole.control);
    assert.deepEqual(scan.repos, [join(ws, 'pkg-3', 'd-3', '.git')]);
  });

  it('says what a command created or changed, and nothing for ordinary work', () => {
    gitDir(join(ws, '.git'));
    const before = scanGitControl([ws]);
    put(join(ws, 'src', 'a.ts'), 'x');
    put(join(ws, '.git', 'index'), 'x');
    assert.deepEqual(gitControlChanges(before, scanGitControl([ws])), []);
    gitDir(join(ws, 'new', '.git'));
    put(join(ws, '.git', 'commondir'), '../elsewhere');
    put(join(ws, '.git', 'config'), '[core]\n\tfsmonitor = x\n');
    const lines = gitControlChanges(before, scanGitControl([ws]));
    assert.ok(lines.includes(`this command created a git repository at ${join(ws, 'new')}; git run there obeys its configuration`), lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith(`this command created ${join(ws, '.git', 'commondir')}`)), lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith(`this command changed ${join(ws, '.git', 'config')}`)), lines.join('\n'));
    assert.ok(!lines.some((l) => l.includes(join(ws, 'new', '.git', 'config'))), 'the new repository is said once');
  });
});
