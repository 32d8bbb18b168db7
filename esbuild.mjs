// Bundles the two hosts (extension, CLI) and writes the config JSON Schema next to them.
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib } from 'node:zlib';
import { splitBuild, vendorBuilds, withHelpText, zodEnglishOnly } from './scripts/cli-bundles.mjs';
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
/** `from`, brotli-compressed at the highest quality, as `to` (the plain file of an earlier build removed). */
async function brotliFile(from, to) {
  const bytes = await readFile(from);
  const packed = await promisify(brotliCompress)(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  await mkdir('dist', { recursive: true });
  await writeFile(to, packed);
  await rm(to.replace(/\.br$/, ''), { force: true });
}

const vendors = await vendorBuilds(common);
await Promise.all([
  // extension.js is the activation; extension-core.js, required on first use, the rest (light activation).
  build({ ...common, entryPoints: { extension: 'src/extension/activate.ts' }, outdir: 'dist', external: ['vscode'], plugins: [...common.plugins, zodEnglishOnly] }),
  // The CLI (a small entry, commander and the command definitions, the core on demand) and the
  // extension's core, sharing one copy of the core in chunks (see scripts/cli-bundles.mjs).
  splitBuild(common),
  // The heavy dependencies only some commands use, each loaded on first use.
  ...vendors.map((options) => build(options)),
  // The chat webview's script (issue 7): runs in the browser, so its own bundle; codicons beside it.
  build({ ...common, platform: 'browser', target: 'es2022', format: 'iife', minify: true, plugins: [...common.plugins, zodEnglishOnly], entryPoints: { webview: 'src/webview/main.ts' }, outdir: 'dist' }),
  // The model setup form's script (issue 26): a page of its own, so a bundle of its own.
  build({ ...common, platform: 'browser', target: 'es2022', format: 'iife', minify: true, plugins: [...common.plugins, zodEnglishOnly], entryPoints: { 'model-form': 'src/webview-model-form/main.ts' }, outdir: 'dist' }),
  // The bash grammar the permission barrier parses commands with (WebAssembly), beside the bundles,
  // brotli-compressed (a third of its zip size; unpacked in memory in a few ms when first loaded).
  brotliFile('node_modules/web-tree-sitter/tree-sitter.wasm', 'dist/tree-sitter.wasm.br'),
  brotliFile('node_modules/tree-sitter-bash/tree-sitter-bash.wasm', 'dist/tree-sitter-bash.wasm.br'),
  mkdir('dist/codicons', { recursive: true }).then(() =>
    Promise.all(['codicon.css', 'codicon.ttf'].map((f) => copyFile(`node_modules/@vscode/codicons/dist/${f}`, `dist/codicons/${f}`))),
  ),
]);

// `pepe --help` prints the help built into dist/cli.js (the CLI just built is asked for it).
await withHelpText(common);

// The JSON Schema comes from the same zod schema the store validates with (spec 2).
const schemaModule = await build({
  ...common, entryPoints: ['src/core/config/json-schema.ts'], write: false, sourcemap: false,
});
const mod = { exports: {} };
new Function('module', 'exports', 'require', schemaModule.outputFiles[0].text)(mod, mod.exports, (await import('node:module')).createRequire(import.meta.url));
await writeFile('dist/config.schema.json', JSON.stringify(mod.exports.configJsonSchema(), null, 2) + '\n');
if (watch) console.log('watch mode is not supported; rerun npm run build');
