import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enableCodeCache } from '../../../src/cli/code-cache.js';
import { ensureBuilt, ROOT } from '../helpers/cli.js';

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

describe('the CLI code cache across installs (issue 27)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'pepe-code-cache-installs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // Failed against bfd1589: the second install's run deleted the first one's entries ("earlier
  // builds" of a bundle of the same name), so the two evicted each other on every run.
  it('two installs sharing a cache folder keep their own entries; neither evicts the other', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    cpSync(join(ROOT, 'dist'), a, { recursive: true });
    cpSync(join(ROOT, 'dist'), b, { recursive: true });
    const cache = join(dir, 'cache');
    const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CACHE_HOME: cache, PEPE_HOME: join(dir, 'home') };
    const run = (install: string) => execa('node', [join(install, 'cli.js'), 'slot', 'list'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    const entries = () => readdirSync(join(cache, 'pepe', 'v8')).sort();
    assert.equal((await run(a)).exitCode, 0);
    const afterA = entries();
    assert.ok(afterA.length > 0, 'the first run writes cache entries');
    assert.equal((await run(b)).exitCode, 0);
    const afterB = entries();
    for (const e of afterA) assert.ok(afterB.includes(e), `install b's run kept install a's entry ${e}`);
    const stamp = (f: string) => statSync(join(cache, 'pepe', 'v8', f)).mtimeMs;
    const before = Object.fromEntries(afterB.map((f) => [f, stamp(f)]));
    assert.equal((await run(a)).exitCode, 0);
    assert.equal((await run(b)).exitCode, 0);
    const again = entries();
    assert.deepEqual(again, afterB, 'a warm run of each install writes no new entry');
    for (const f of again) assert.equal(stamp(f), before[f], `${f} was not rewritten (it was used, not missed)`);
  });
});
