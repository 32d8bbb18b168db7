// Bundles the two hosts (extension, CLI) and writes the config JSON Schema next to them.
import { build } from 'esbuild';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { cliBuilds } from './scripts/cli-bundles.mjs';
import { sdkTypesText } from './scripts/sdk-types-text.mjs';

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
  minify: process.argv.includes('--minify'),
  // `pepe init`'s declarations: generated from the real SDK types at build time.
  plugins: [sdkTypesText],
};

await mkdir('dist', { recursive: true });
// The sources are ES modules (package.json "type": "module"); the bundles are CommonJS, which is
// what VS Code loads, so dist/ gets its own package.json saying so.
await writeFile('dist/package.json', JSON.stringify({ type: 'commonjs' }) + '\n');
await Promise.all([
  // extension-core.js holds the core and is required by extension.js on first use (light activation).
  build({ ...common, entryPoints: { extension: 'src/extension/activate.ts', 'extension-core': 'src/extension/core-bundle.ts' }, outdir: 'dist', external: ['vscode'] }),
  // The CLI: a small entry (commander and the command definitions) plus bundles it requires on
  // demand, so `pepe --help` does not load the core (see scripts/cli-bundles.mjs).
  ...(await cliBuilds(common)).map((options) => build(options)),
  // The chat webview's script (issue 7): runs in the browser, so its own bundle; codicons beside it.
  build({ ...common, platform: 'browser', target: 'es2022', format: 'iife', minify: true, entryPoints: { webview: 'src/webview/main.ts' }, outdir: 'dist' }),
  // The model setup form's script (issue 26): a page of its own, so a bundle of its own.
  build({ ...common, platform: 'browser', target: 'es2022', format: 'iife', minify: true, entryPoints: { 'model-form': 'src/webview-model-form/main.ts' }, outdir: 'dist' }),
  // The bash grammar the permission barrier parses commands with (WebAssembly), beside the bundles.
  copyFile('node_modules/web-tree-sitter/tree-sitter.wasm', 'dist/tree-sitter.wasm'),
  copyFile('node_modules/tree-sitter-bash/tree-sitter-bash.wasm', 'dist/tree-sitter-bash.wasm'),
  mkdir('dist/codicons', { recursive: true }).then(() =>
    Promise.all(['codicon.css', 'codicon.ttf'].map((f) => copyFile(`node_modules/@vscode/codicons/dist/${f}`, `dist/codicons/${f}`))),
  ),
]);

// The JSON Schema comes from the same zod schema the store validates with (spec 2).
const schemaModule = await build({
  ...common, entryPoints: ['src/core/config/json-schema.ts'], write: false, sourcemap: false,
});
const mod = { exports: {} };
new Function('module', 'exports', 'require', schemaModule.outputFiles[0].text)(mod, mod.exports, (await import('node:module')).createRequire(import.meta.url));
await writeFile('dist/config.schema.json', JSON.stringify(mod.exports.configJsonSchema(), null, 2) + '\n');
if (watch) console.log('watch mode is not supported; rerun npm run build');
