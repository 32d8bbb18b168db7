import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enableAsciiBundleRead } from '../../../src/cli/bundle-read.js';

type LoadJs = (module: unknown, filename: string) => unknown;
const extensions = (Module as unknown as { _extensions: Record<string, LoadJs> })._extensions;

describe('reading the CLI bundles as one-byte text (src/cli/bundle-read.ts, issue 27)', () => {
  let dir: string;
  let original: LoadJs;
  let nodeLoaded: string[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-bundle-read-'));
    original = extensions['.js']!;
    nodeLoaded = [];
    // Node's own loader, seen from the test: which files it was left to read.
    extensions['.js'] = function (this: unknown, module, filename) {
      nodeLoaded.push(filename);
      return original.call(this, module, filename);
    };
  });
  afterEach(() => {
    extensions['.js'] = original;
    rmSync(dir, { recursive: true, force: true });
  });

  const bundles = (type: string | null) => {
    const d = join(dir, 'dist');
    mkdirSync(d, { recursive: true });
    if (type) writeFileSync(join(d, 'package.json'), JSON.stringify({ type }));
    return d;
  };

  it('an ASCII bundle loads without Node decoding it, with the same exports, __dirname and require', () => {
    const d = bundles('commonjs');
    writeFileSync(join(d, 'b.js'), 'module.exports = 41;\n');
    writeFileSync(join(d, 'a.js'), "#!/usr/bin/env node\nmodule.exports = { n: require('./b.js') + 1, dir: __dirname, s: 'plain \\u00e9' };\n");
    assert.equal(enableAsciiBundleRead(d), true);
    const a = createRequire(join(d, 'x.js'))('./a.js') as { n: number; dir: string; s: string };
    assert.deepEqual(a, { n: 42, dir: d, s: 'plain \u00e9' });
    assert.deepEqual(nodeLoaded, [], 'neither file went through the UTF-8 read');
  });

  // Written first: decoding every bundle as Latin-1 turned "é" (two UTF-8 bytes) into "Ã©".
  it('a bundle with any non-ASCII byte is read by Node as UTF-8, so its text is unchanged', () => {
    const d = bundles('commonjs');
    writeFileSync(join(d, 'u.js'), "module.exports = 'caf\u00e9 \u{1F600}';\n", 'utf8');
    enableAsciiBundleRead(d);
    assert.equal(createRequire(join(d, 'x.js'))('./u.js'), 'caf\u00e9 \u{1F600}');
    assert.deepEqual(nodeLoaded, [join(d, 'u.js')]);
  });

  it('files outside the bundle folder, and under a node_modules folder in it, are Node’s to read', () => {
    const d = bundles('commonjs');
    writeFileSync(join(dir, 'outside.js'), 'module.exports = 1;\n');
    mkdirSync(join(d, 'node_modules', 'p'), { recursive: true });
    writeFileSync(join(d, 'node_modules', 'p', 'index.js'), 'module.exports = 2;\n');
    // A sibling whose name starts like the folder is outside it too.
    mkdirSync(`${d}-other`);
    writeFileSync(join(`${d}-other`, 'o.js'), 'module.exports = 3;\n');
    enableAsciiBundleRead(d);
    const req = createRequire(join(d, 'x.js'));
    assert.equal(req('../outside.js'), 1);
    assert.equal(req('p'), 2);
    assert.equal(req(join(`${d}-other`, 'o.js')), 3);
    assert.deepEqual(nodeLoaded, [join(dir, 'outside.js'), join(d, 'node_modules', 'p', 'index.js'), join(`${d}-other`, 'o.js')]);
  });

  it('is not turned on for a folder that is not a CommonJS package of its own (Node keeps refusing ES modules)', () => {
    for (const type of ['module', null]) {
      const d = bundles(type);
      const before = extensions['.js'];
      assert.equal(enableAsciiBundleRead(d), false, `package type ${type}`);
      assert.equal(extensions['.js'], before);
      rmSync(d, { recursive: true, force: true });
    }
  });
});
