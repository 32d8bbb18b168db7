import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PluginRegistry } from '../../../src/core/plugins/registry.js';

/**
 * Issue 27: the guard no longer lists the plugins folder on every call; it stats the folder and
 * lists it again when it changed. A plugin added, removed or renamed must still be seen at the
 * very next call, also when the folder's clock would give the change the same modification time.
 */
describe('plugin listing on the guard path: a changed folder is listed again at once', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'pepe-plugin-names-')), 'plugins');
    mkdirSync(dir);
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  const signature = (r: PluginRegistry) => (r as unknown as { signatureNow(): string | null }).signatureNow();
  const names = (r: PluginRegistry) => (signature(r) ?? '').split('\n').filter(Boolean).map((l) => l.slice(dir.length + 1).split(':')[0]);
  const age = (seconds: number) => {
    const t = Date.now() / 1000 - seconds;
    utimesSync(dir, t, t);
  };

  it('added, renamed, removed: each seen at the next call, a fresh change and an old folder alike', () => {
    const r = new PluginRegistry(dir);
    writeFileSync(join(dir, 'a.mjs'), 'export default {}');
    assert.deepEqual(names(r), ['a.mjs']);
    writeFileSync(join(dir, 'b.mjs'), 'export default {}');
    assert.deepEqual(names(r), ['a.mjs', 'b.mjs'], 'a file added right after a listing');

    age(3600); // a folder unchanged for an hour: its listing is kept
    assert.deepEqual(names(r), ['a.mjs', 'b.mjs']);
    writeFileSync(join(dir, 'c.ts'), 'export default {}');
    writeFileSync(join(dir, 'types.d.ts'), '');
    assert.deepEqual(names(r), ['a.mjs', 'b.mjs', 'c.ts']);

    age(3600);
    names(r);
    renameSync(join(dir, 'a.mjs'), join(dir, 'z.mjs'));
    age(3600); // the same modification time as before (a coarse clock): the change time still differs
    assert.deepEqual(names(r), ['b.mjs', 'c.ts', 'z.mjs']);

    age(3600);
    names(r);
    rmSync(join(dir, 'b.mjs'));
    assert.deepEqual(names(r), ['c.ts', 'z.mjs']);
    rmSync(dir, { recursive: true });
    assert.equal(signature(r), null);
  });

  it('a plugin file changed in place changes the signature (each file is still stamped per call)', () => {
    const r = new PluginRegistry(dir);
    writeFileSync(join(dir, 'a.mjs'), 'export default {}');
    age(3600);
    const before = signature(r);
    writeFileSync(join(dir, 'a.mjs'), 'export default { changed: true }');
    assert.notEqual(signature(r), before);
  });

  it('a plugin rewritten in place with the same size and its old modification time put back is still seen', () => {
    const r = new PluginRegistry(dir);
    const file = join(dir, 'a.mjs');
    writeFileSync(file, 'export default { v: 1 }');
    utimesSync(file, 1_000_000, 1_000_000);
    age(3600);
    const before = signature(r);
    writeFileSync(file, 'export default { v: 2 }');
    utimesSync(file, 1_000_000, 1_000_000); // touch -r: the same size, the same modification time
    assert.notEqual(signature(r), before, 'a same-size rewrite with its time put back was not noticed');
  });
});
