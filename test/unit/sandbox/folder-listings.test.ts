import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderListings, RECENT_MS } from '../../../src/core/sandbox/folder-listings.js';
import { gitControlChanges, scanGitControl } from '../../../src/core/sandbox/git-control.js';

/**
 * The git control scan remembers folders' listings between scans (issue 27). A listing remembered
 * wrongly is a repository or hook a command planted going unsaid, so each way a command could
 * change a folder is tried against a remembered listing.
 */
describe('folder listings remembered between git control scans', () => {
  let ws: string;
  /** A clock far enough ahead that every folder counts as settled: listings are remembered at once. */
  const settled = () => new FolderListings(() => Date.now() + 10 * RECENT_MS);
  const names = (entries: readonly { name: string }[]) => entries.map((e) => e.name).sort();
  beforeEach(() => {
    ws = mkdtempSync(join(tmpdir(), 'pepe-listings-'));
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  it('gives the remembered listing while the folder is unchanged, and reads it again once it changed', () => {
    mkdirSync(join(ws, 'a'));
    writeFileSync(join(ws, 'file.txt'), 'x');
    const listings = settled();
    const first = listings.list(ws);
    assert.deepEqual(names(first), ['a'], 'only folders (and .git, HEAD, sockets) are kept');
    assert.equal(listings.list(ws), first, 'unchanged: the remembered listing');
    // Writing inside a file changes nothing the listing holds.
    writeFileSync(join(ws, 'a', 'inner.txt'), 'y');
    assert.equal(listings.list(ws), first);
    mkdirSync(join(ws, 'b'));
    const second = listings.list(ws);
    assert.notEqual(second, first);
    assert.deepEqual(names(second), ['a', 'b']);
  });

  it('sees a new entry even when the folder’s modification time is set back (ctime cannot be)', () => {
    mkdirSync(join(ws, 'deep'));
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(ws, 'deep'), old, old);
    const listings = settled();
    assert.deepEqual(names(listings.list(join(ws, 'deep'))), []);
    mkdirSync(join(ws, 'deep', '.git'));
    utimesSync(join(ws, 'deep'), old, old);
    assert.equal(lstatSync(join(ws, 'deep')).mtimeMs, old.getTime(), 'the modification time is what it was: a cache keyed on it would miss the change');
    assert.deepEqual(names(listings.list(join(ws, 'deep'))), ['.git']);
  });

  it('reads again a folder replaced by another (new inode), and lists nothing for a link put in its place', () => {
    const outside = mkdtempSync(join(tmpdir(), 'pepe-listings-out-'));
    try {
      mkdirSync(join(outside, 'r', '.git'), { recursive: true });
      mkdirSync(join(ws, 'x'));
      const listings = settled();
      assert.deepEqual(names(listings.list(join(ws, 'x'))), []);
      rmSync(join(ws, 'x'), { recursive: true });
      mkdirSync(join(ws, 'x', '.git'), { recursive: true });
      assert.deepEqual(names(listings.list(join(ws, 'x'))), ['.git']);
      rmSync(join(ws, 'x'), { recursive: true });
      symlinkSync(join(outside, 'r'), join(ws, 'x'));
      assert.deepEqual(listings.list(join(ws, 'x')), [], 'a link is not followed');
      assert.equal(listings.size, 0, 'and nothing is remembered for it');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('does not remember a folder changed less than a clock tick’s margin ago', () => {
    mkdirSync(join(ws, 'fresh'));
    const listings = new FolderListings(); // the real clock: the folder was made just now
    const a = listings.list(join(ws, 'fresh'));
    assert.notEqual(listings.list(join(ws, 'fresh')), a, 'read again');
    assert.equal(listings.size, 0);
  });

  it('a scan with remembered listings reports what a command planted: a repository in a settled folder, one moved in, one in a replaced folder', () => {
    for (const d of ['src/deep/er', 'other/sub', 'gone']) mkdirSync(join(ws, d), { recursive: true });
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(ws, 'src', 'deep', 'er'), old, old);
    const listings = settled();
    const before = scanGitControl([ws], {}, listings);
    assert.deepEqual(gitControlChanges(before, scanGitControl([ws], {}, listings)), [], 'nothing changed, nothing said');
    assert.ok(listings.size >= 6, 'the scan remembered the folders it read');
    // The command: a repository inside a settled folder (its time set back), one built elsewhere and
    // moved into a settled folder, and a folder replaced by one holding a repository.
    mkdirSync(join(ws, 'src', 'deep', 'er', '.git'));
    writeFileSync(join(ws, 'src', 'deep', 'er', '.git', 'config'), '[core]\n\tfsmonitor = x\n');
    utimesSync(join(ws, 'src', 'deep', 'er'), old, old);
    mkdirSync(join(ws, 'tmp-build', 'r', '.git'), { recursive: true });
    renameSync(join(ws, 'tmp-build', 'r'), join(ws, 'other', 'sub', 'r'));
    rmSync(join(ws, 'tmp-build'), { recursive: true });
    rmSync(join(ws, 'gone'), { recursive: true });
    mkdirSync(join(ws, 'gone', '.git'), { recursive: true });
    const lines = gitControlChanges(before, scanGitControl([ws], {}, listings)).join('\n');
    for (const at of [join(ws, 'src', 'deep', 'er'), join(ws, 'other', 'sub', 'r'), join(ws, 'gone')]) {
      assert.ok(lines.includes(`created a git repository at ${at};`), `${at} unsaid in:\n${lines}`);
    }
  });
});
