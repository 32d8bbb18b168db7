/**
 * The package ships the bash grammar brotli-compressed beside the bundles (dist/*.wasm.br). A copy
 * of dist/ with no node_modules anywhere above it (as in the installed .vsix) must still read a
 * command that needs the grammar: a pipeline runs as harmless instead of being parked unread.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { script } from '../helpers/agents.js';
import { ensureBuilt, ROOT } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

describe('pepe from a copy of the package: the compressed bash grammar', function () {
  this.timeout(60_000);
  let home: TempHome;
  let pkg: string;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
    pkg = mkdtempSync(join(tmpdir(), 'pepe-pkg-'));
    cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
  });
  afterEach(() => {
    home.cleanup();
    rmSync(pkg, { recursive: true, force: true });
  });

  it('ships only the compressed .wasm files, and a pipeline is read with them', async () => {
    const wasm = readdirSync(join(pkg, 'dist')).filter((f) => f.includes('.wasm'));
    assert.deepEqual(wasm.sort(), ['tree-sitter-bash.wasm.br', 'tree-sitter.wasm.br']);
    assert.equal(existsSync(join(pkg, 'node_modules')), false);
    const model = script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo grammar-read | tr a-z A-Z' } }] }, { text: 'done' }]);
    home.writeConfig({ agents: { a: { model, auto_approve: ['bash:none'] } } });
    const r = await runCopy();
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /GRAMMAR-READ/, `the pipeline did not run: ${r.stdout}\n${r.stderr}`);
    // The control: without the grammar beside the bundles the same pipeline cannot be read, and is
    // not run (so the run above did read it with the shipped grammar).
    for (const f of wasm) rmSync(join(pkg, 'dist', f));
    const without = await runCopy();
    assert.doesNotMatch(without.stdout, /GRAMMAR-READ/);
    assert.match(without.stdout, /parked|not run/i);
  });

  it("never takes a grammar from the workspace: a node_modules there is the workspace's, not Pepe's", async () => {
    // A workspace could hold a grammar built to read `rm -rf ~` as harmless. Planted here as the
    // genuine files: were they used, the pipeline would be read and run.
    for (const [pkgName, file] of [['tree-sitter-bash', 'tree-sitter-bash.wasm'], ['web-tree-sitter', 'tree-sitter.wasm']] as const) {
      const dir = join(home.workspace, 'node_modules', pkgName);
      mkdirSync(dir, { recursive: true });
      cpSync(join(ROOT, 'node_modules', pkgName, file), join(dir, file));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: pkgName, version: '1.0.0' }));
    }
    for (const f of readdirSync(join(pkg, 'dist')).filter((f) => f.includes('.wasm'))) rmSync(join(pkg, 'dist', f));
    const model = script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo grammar-read | tr a-z A-Z' } }] }, { text: 'done' }]);
    home.writeConfig({ agents: { a: { model, auto_approve: ['bash:none'] } } });
    const r = await runCopy();
    assert.doesNotMatch(r.stdout, /GRAMMAR-READ/, 'the pipeline was read with the workspace\'s grammar');
    assert.match(r.stdout, /parked|not run/i);
  });

  function runCopy() {
    return execa('node', [join(pkg, 'dist', 'cli.js'), 'run', 'a', 'go', '--json'], {
      cwd: home.workspace,
      env: { PATH: process.env.PATH ?? '', HOME: home.dir, PEPE_HOME: home.dir, XDG_CACHE_HOME: join(home.dir, 'cache') },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      timeout: 60_000,
    });
  }
});
