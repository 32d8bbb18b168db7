import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

describe('the CLI code cache lets go of installs that are gone (issue 27)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'pepe-code-cache-prune-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // Failed before: entries were named per install and never removed, so each update of the
  // extension (a new folder) left its predecessor's few MB behind for good.
  it("an install whose folder is gone loses its entries the next time another install writes; a live one keeps them; old unclaimed ones go", async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => join(dir, n));
    for (const install of [a, b, c]) cpSync(join(ROOT, 'dist'), install!, { recursive: true });
    const cache = join(dir, 'cache');
    const v8dir = join(cache, 'pepe', 'v8');
    const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CACHE_HOME: cache, PEPE_HOME: join(dir, 'home') };
    const run = async (install: string) => {
      const r = await execa('node', [join(install, 'cli.js'), 'slot', 'list'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
      assert.equal(r.exitCode, 0, r.stderr);
    };
    const entries = () => readdirSync(v8dir).sort();
    const owners = () => new Set(entries().map((f) => f.slice(0, 16)));
    await run(a!);
    await run(b!);
    await run(c!);
    assert.equal(owners().size, 3, `three installs' entries: ${entries().join(', ')}`);
    assert.equal(entries().filter((f) => f.endsWith('.folder')).length, 3, 'each install records its folder');
    const ofB = entries().filter((f) => readFileSync(join(v8dir, f)).includes(b!) && f.endsWith('.folder'))[0]!.slice(0, 16);
    // An entry no install claims (written before installs recorded their folders), a month old.
    const stray = join(v8dir, '0123456789abcdef-cli-core.js-1-1-x64.bin');
    writeFileSync(stray, 'x');
    const old = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    utimesSync(stray, old, old);
    const fresh = join(v8dir, 'fedcba9876543210-cli-core.js-1-1-x64.bin');
    writeFileSync(fresh, 'x');

    rmSync(b!, { recursive: true, force: true });
    await run(a!);
    assert.ok(owners().has(ofB), 'a start that finds its entries removes nothing (it writes nothing)');
    // Install a is rebuilt (its bundle changes), so its next start writes entries, and prunes.
    const bundle = join(a!, 'cli-core.js');
    writeFileSync(bundle, readFileSync(bundle, 'utf8') + '\n');
    await run(a!);
    const left = entries();
    assert.ok(!left.some((f) => f.startsWith(ofB)), `install b's entries are gone: ${left.join(', ')}`);
    assert.ok(!left.includes('0123456789abcdef-cli-core.js-1-1-x64.bin'), 'the old unclaimed entry is gone');
    assert.ok(left.includes('fedcba9876543210-cli-core.js-1-1-x64.bin'), 'a recent unclaimed entry stays');
    assert.equal(owners().size, 3, `a's and c's entries stay (and the recent stray): ${left.join(', ')}`);
    assert.equal(left.filter((f) => f.includes('cli-core.js') && f.endsWith('.bin')).length, 3, "a's earlier build's entry replaced, c's kept, the stray");
  });
});

describe('the CLI code cache grows toward what the commands use (issue 27)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'pepe-code-cache-growth-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // Failed before: an entry was written only when it was missing or rejected, so the first command
  // after a build decided what every later one found (a `run` after a `slot list` compiled a fifth
  // of the core afresh on every start).
  it('a command that compiled notably more than the entries held rewrites them once; a repeat writes nothing', async () => {
    const install = join(dir, 'dist');
    cpSync(join(ROOT, 'dist'), install, { recursive: true });
    const home = join(dir, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agents: { a: { model: 'mock' } } }));
    const cache = join(dir, 'cache');
    const v8dir = join(cache, 'pepe', 'v8');
    const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CACHE_HOME: cache, PEPE_HOME: home };
    const pepe = async (...args: string[]) => {
      const r = await execa('node', [join(install, 'cli.js'), ...args], { env, extendEnv: false, reject: false, stdin: 'ignore', cwd: dir });
      assert.equal(r.exitCode, 0, `pepe ${args.join(' ')}: ${r.stderr}`);
    };
    // The core's largest part: the chunk holding most of it (dist/cli-core.js itself is its small entry).
    const largest = readdirSync(install).filter((f) => f.endsWith('.js')).sort((x, y) => statSync(join(install, y)).size - statSync(join(install, x)).size)[0]!;
    const core = () => {
      const names = readdirSync(v8dir).filter((f) => f.includes(`-${largest}-`) && f.endsWith('.bin'));
      assert.equal(names.length, 1, `one entry for ${largest}: ${names.join(', ')}`);
      const st = statSync(join(v8dir, names[0]!));
      return { name: names[0], size: st.size, mtimeMs: st.mtimeMs };
    };
    const coverage = () => readdirSync(v8dir).filter((f) => f.endsWith('.coverage'));

    await pepe('slot', 'list');
    const listed = core();
    await pepe('slot', 'list');
    assert.deepEqual(core(), listed, 'the same command again writes nothing');

    await pepe('run', 'a', 'hi', '--no-input');
    const grown = core();
    assert.equal(grown.name, listed.name, 'the same entry (same build)');
    // The part both commands load is written again, holding what run compiled in it too (most of
    // what a turn adds is in parts of its own, whose entries are new).
    assert.ok(grown.size > listed.size, `the shared entry grew with what run compiled: ${listed.size} → ${grown.size} bytes`);

    assert.equal(coverage().length, 1, 'what the writing process held is recorded beside the entries');
    await pepe('run', 'a', 'hi', '--no-input');
    await pepe('slot', 'list');
    assert.deepEqual(core(), grown, 'once it holds both, neither command writes it again');

    // A record that is not a number is not trusted (nor fatal): the entries are written once more.
    writeFileSync(join(v8dir, coverage()[0]!), 'garbage\n');
    await pepe('slot', 'list');
    assert.ok(core().mtimeMs >= grown.mtimeMs, 'still one entry for the core');
    const settled = core();
    await pepe('slot', 'list');
    assert.deepEqual(core(), settled, 'and then settles again');
  });
});
