import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enableCodeCache } from '../../../src/cli/code-cache.js';

describe('the CLI code cache (src/cli/code-cache.ts)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-code-cache-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a module loaded through it behaves as under Node: require, __dirname, import(), a shebang line', async () => {
    const bundles = join(dir, 'dist');
    mkdirSync(bundles);
    writeFileSync(join(bundles, 'package.json'), '{"type":"commonjs"}');
    writeFileSync(join(bundles, 'b.js'), 'module.exports = 42;\n');
    writeFileSync(
      join(bundles, 'a.js'),
      "#!/usr/bin/env node\nmodule.exports = { b: require('./b.js'), dir: __dirname, file: __filename, self: this === module.exports, dyn: () => import('node:path').then((m) => typeof m.join) };\n",
    );
    const proto = Module.prototype as unknown as { _compile: unknown };
    const before = proto._compile;
    enableCodeCache(bundles, { XDG_CACHE_HOME: join(dir, 'cache'), HOME: dir });
    if (!('enableCompileCache' in Module)) assert.notEqual(proto._compile, before, 'the loader hook is installed (Node before 22.1)');
    const a = createRequire(join(bundles, 'x.js'))('./a.js') as { b: number; dir: string; file: string; self: boolean; dyn: () => Promise<string> };
    assert.deepEqual({ b: a.b, dir: a.dir, file: a.file, self: a.self }, { b: 42, dir: bundles, file: join(bundles, 'a.js'), self: true });
    assert.equal(await a.dyn(), 'function');
    assert.match(readFileSync(join(bundles, 'a.js'), 'utf8'), /^#!/);
  });
});
