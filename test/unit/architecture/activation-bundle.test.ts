import assert from 'node:assert/strict';
import { join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '../../..');

/**
 * Activation stays light: dist/extension.js holds the views, commands and chat host; the core
 * (zod's schemas at large, execa, the model SDKs, yaml, checkpoints) is required from
 * dist/extension-core.js on first use. A static import from the activation side into the heavy
 * core pulls it all back in without any test noticing, so this one looks at the bundle itself.
 */
describe('the activation bundle (dist/extension.js)', function () {
  this.timeout(60_000);
  it('stays small and carries none of the heavy core', async () => {
    const r = await build({
      entryPoints: [join(ROOT, 'src/extension/activate.ts')],
      bundle: true, platform: 'node', format: 'cjs', external: ['vscode'], write: false, metafile: true, minify: true,
      outfile: join(ROOT, '.test-tmp/activation-probe.js'), logLevel: 'error',
    });
    const size = r.outputFiles[0]!.contents.length;
    const inputs = Object.keys(Object.values(r.metafile.outputs)[0]!.inputs);
    const heavy = inputs.filter((f) => /node_modules\/(execa|ai|@ai-sdk|yaml|marked|sucrase|@modelcontextprotocol|web-tree-sitter)\/|src\/core\/(checkpoints|runtime|permissions\/barrier|mcp|sandbox)\//.test(f));
    assert.deepEqual(heavy, [], 'these belong in the core bundle, loaded on first use');
    assert.ok(size < 150_000, `dist/extension.js would be ${size} bytes minified (keep it under 150 KB)`);
  });
});
