import assert from 'node:assert/strict';
import fs, { lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderListings, RECENT_MS, settled } from '../../../src/core/sandbox/folder-listings.js';
import { gitControlChanges, scanGitControl } from '../../../src/core/sandbox/git-control.js';

/**
 * The git control scan remembers folders' listings between scans (issue 27). A listing remembered
 * wrongly is a repository or hook a command planted going unsaid, so each way a command could
 * change a folder is tried against a remembered listing.
 */
describe('folder listings remembered between git control scans', () => {
  let ws: string;
  /** A clock far enough ahead that every folder counts as settled: listings are remembered at once. */
  const settledListings = () => new FolderListings(() => Date.now() + 10 * RECENT_MS);
  const names = (listing: { entries: readonly { name: string }[] }) => listing.entries.map((e) => e.name).sort();
  beforeEach(() => {
    ws = mkdtempSync(join(tmpdir(), 'pepe-listings-'));
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  /** Runs `act` just before each readdirSync the code under test makes of a folder, while `fn` runs. */
  function beforeEachRead<T>(act: (path: string) => void, fn: () => T): T {
    const real = fs.readdirSync;
    (fs as { readdirSync: unknown }).readdirSync = function (this: unknown, path: fs.PathLike, ...rest: unknown[]) {
      act(String(path));
      return (real as (...a: unknown[]) => unknown).call(this, path, ...rest);
    };
    syncBuiltinESMExports();
    try {
      return fn();
    } finally {
      (fs as { readdirSync: unknown }).readdirSync = real;
      syncBuiltinESMExports();
    }
  }

  it('gives the remembered listing while the folder is unchanged, and reads it again once it changed', () => {
    mkdirSync(join(ws, 'a'));
    writeFileSync(join(ws, 'file.txt'), 'x');
    const listings = settledListings();
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
    const listings = settledListings();
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
      const listings = settledListings();
      assert.deepEqual(names(listings.list(join(ws, 'x'))), []);
      rmSync(join(ws, 'x'), { recursive: true });
      mkdirSync(join(ws, 'x', '.git'), { recursive: true });
      assert.deepEqual(names(listings.list(join(ws, 'x'))), ['.git']);
      rmSync(join(ws, 'x'), { recursive: true });
      symlinkSync(join(outside, 'r'), join(ws, 'x'));
      assert.deepEqual(listings.list(join(ws, 'x')).entries, [], 'a link is not followed');
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

  // Found by the attack review of the first version, which read the folder by its path after
  // taking its ctime by its path: a folder above it swapped in between (and back) got the decoy's
  // entries remembered under the real folder's identity, and a repository below it went unsaid.
  it('a folder above swapped for a decoy between the look and the read cannot get the decoy’s entries remembered', () => {
    mkdirSync(join(ws, 'a', 'b', '.git'), { recursive: true });
    mkdirSync(join(ws, 'decoy', 'b', 'decoy-marker'), { recursive: true });
    const listings = settledListings();
    const swap = () => {
      renameSync(join(ws, 'a'), join(ws, 'tmp'));
      renameSync(join(ws, 'decoy'), join(ws, 'a'));
      renameSync(join(ws, 'tmp'), join(ws, 'decoy'));
    };
    let swapped = 0;
    // Swap just before the read, swap back just after: the real a/b is untouched throughout.
    beforeEachRead(() => {
      if (swapped++ === 0) swap();
    }, () => listings.list(join(ws, 'a', 'b')));
    swap();
    assert.equal(swapped, 1, 'the read was made');
    assert.deepEqual(names(listings.list(join(ws, 'a', 'b'))), ['.git'], 'the real folder’s entries');
  });

  // Found by the attack review: a read that failed (EMFILE) was remembered as an empty folder.
  it('a read that failed is never remembered, and makes the scan incomplete', () => {
    mkdirSync(join(ws, 'src', 'lib'), { recursive: true });
    const listings = settledListings();
    const emfile = Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
    const before = beforeEachRead((p) => {
      if (p.includes('/proc/self/fd/') || p.endsWith('src')) throw emfile;
    }, () => scanGitControl([ws], {}, listings));
    assert.match(before.cutOff ?? '', /a folder could not be read \(EMFILE\)/);
    assert.match(gitControlChanges(before, before).join('\n'), /could not be checked completely/, 'said after the command: the run is tainted');
    mkdirSync(join(ws, 'src', 'lib', '.git'));
    const lines = gitControlChanges(before, scanGitControl([ws], {}, listings)).join('\n');
    assert.ok(lines.includes(`created a git repository at ${join(ws, 'src', 'lib')};`), lines);
  });

  // Found by the attack review: ext2/3 (and ext4 with small inodes) keep times in whole seconds,
  // so a change in the same second as the read kept the folder's ctime.
  it('does not remember a listing whose ctime is a whole second, or less than a second old', () => {
    const now = Date.parse('2026-06-01T12:00:10Z');
    assert.equal(settled(now - 5000 + 0.25, now), true);
    assert.equal(settled(now - 5000, now), false, 'a whole second: a file system that keeps seconds only');
    assert.equal(settled(now - RECENT_MS + 1.5, now), false, 'too recent');
    assert.equal(settled(now + 3000.5, now), false, 'a ctime ahead of the clock');
  });

  // Holes older than the listings, found by the same review: both were missed by the scan.
  it('a folder name that is not UTF-8 makes the scan incomplete; a bare repository whose HEAD is a link is found', () => {
    const odd = Buffer.concat([Buffer.from(`${ws}/`), Buffer.from([0x66, 0xff, 0x66])]);
    mkdirSync(odd);
    mkdirSync(Buffer.concat([odd, Buffer.from('/.git')]));
    mkdirSync(join(ws, 'ok\uFFFDname'));
    const scan = scanGitControl([ws], {}, settledListings());
    assert.match(scan.cutOff ?? '', /a folder name that is not UTF-8 in /);
    rmSync(odd, { recursive: true });
    assert.equal(scanGitControl([ws], {}, settledListings()).cutOff, null, 'a name really holding U+FFFD is fine');
    for (const d of ['bare.git/objects', 'bare.git/refs']) mkdirSync(join(ws, d), { recursive: true });
    writeFileSync(join(ws, 'bare.git', 'config'), '[core]\n\tbare = true\n');
    writeFileSync(join(ws, 'bare.git', 'real-head'), 'ref: refs/heads/main\n');
    symlinkSync('real-head', join(ws, 'bare.git', 'HEAD'));
    assert.deepEqual(scanGitControl([ws], {}, settledListings()).repos, [join(ws, 'bare.git')]);
  });

  it('a scan with remembered listings reports what a command planted: a repository in a settled folder, one moved in, one in a replaced folder', () => {
    for (const d of ['src/deep/er', 'other/sub', 'gone']) mkdirSync(join(ws, d), { recursive: true });
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(ws, 'src', 'deep', 'er'), old, old);
    const listings = settledListings();
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
