import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confinementKey, forgetCachedConfinement, readCachedConfinement, writeCachedConfinement } from '../../../src/core/sandbox/detect-cache.js';

const ROOT = join(import.meta.dirname, '../../..');

/** Runs detectConfinement in a fresh process whose cache folder is `cache`; prints the status. */
function detectInChild(cache: string): { confined: boolean; reason?: string } {
  const code = "import('./src/core/sandbox/index.ts').then(async (m) => console.log(JSON.stringify(await m.detectConfinement())))";
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', code], { cwd: ROOT, env: { ...process.env, XDG_CACHE_HOME: cache }, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('the confinement probe, kept across processes', function () {
  this.timeout(60_000);
  let root: string;
  let dir: string;
  let program: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pepe-detect-cache-'));
    dir = join(root, 'pepe');
    program = join(root, 'bwrap-like');
    writeFileSync(program, 'x');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads back what it stored, for the same key only', () => {
    const key = confinementKey(program)!;
    writeCachedConfinement({ key, at: Date.now(), status: { confined: true, backend: 'bubblewrap' }, version: 'bubblewrap 0.8.0' }, dir);
    assert.deepEqual(readCachedConfinement(key, dir)?.status, { confined: true, backend: 'bubblewrap' });
    assert.equal(readCachedConfinement(key + 'x', dir), null);
  });

  it('a changed program (size, mtime) no longer matches', () => {
    const key = confinementKey(program)!;
    writeCachedConfinement({ key, at: Date.now(), status: { confined: true, backend: 'bubblewrap' } }, dir);
    writeFileSync(program, 'a different build');
    assert.notEqual(confinementKey(program), key);
    assert.equal(confinementKey(join(root, 'missing')), null);
  });

  it('an entry older than a day, malformed, or writable by others is ignored', () => {
    const key = confinementKey(program)!;
    writeCachedConfinement({ key, at: Date.now() - 25 * 3600_000, status: { confined: true, backend: 'bubblewrap' } }, dir);
    assert.equal(readCachedConfinement(key, dir), null, 'stale');
    writeCachedConfinement({ key, at: Date.now(), status: { confined: true, backend: 'bubblewrap' } }, dir);
    const file = join(dir, `confinement-${process.getuid?.() ?? 'user'}.json`);
    chmodSync(file, 0o666);
    assert.equal(readCachedConfinement(key, dir), null, 'world-writable file');
    chmodSync(file, 0o600);
    chmodSync(dir, 0o777);
    assert.equal(readCachedConfinement(key, dir), null, 'world-writable folder');
    chmodSync(dir, 0o700);
    writeFileSync(file, JSON.stringify({ key, at: Date.now(), status: { confined: true, backend: 'chroot' } }));
    assert.equal(readCachedConfinement(key, dir), null, 'unknown backend');
    writeFileSync(file, 'not json');
    assert.equal(readCachedConfinement(key, dir), null, 'not JSON');
  });

  it('a failed confined start drops the entry', () => {
    const key = confinementKey(program)!;
    writeCachedConfinement({ key, at: Date.now(), status: { confined: true, backend: 'bubblewrap' } }, dir);
    forgetCachedConfinement(dir);
    assert.equal(readCachedConfinement(key, dir), null);
  });

  it('a second process takes the stored answer instead of probing; a different key probes for real', function () {
    if (process.platform !== 'linux') this.skip();
    const cache = join(root, 'xdg');
    const first = detectInChild(cache);
    const file = join(cache, 'pepe', `confinement-${process.getuid?.() ?? 'user'}.json`);
    if (!existsSync(file)) this.skip(); // no bubblewrap here: nothing to key on
    const entry = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(entry.status, first);
    // A marker only a stored answer can carry: the child must return it without probing.
    writeFileSync(file, JSON.stringify({ ...entry, status: { confined: false, reason: 'stored-marker' } }), { mode: 0o600 });
    assert.deepEqual(detectInChild(cache), { confined: false, reason: 'stored-marker' });
    // Same answer under another key (another kernel, program or uid): not used.
    writeFileSync(file, JSON.stringify({ ...entry, key: entry.key.replace('[', '["elsewhere",'), status: { confined: false, reason: 'stored-marker' } }), { mode: 0o600 });
    assert.deepEqual(detectInChild(cache), first);
  });
});
