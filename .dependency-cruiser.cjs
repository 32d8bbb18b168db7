/**
 * The intended import graph of src/ (docs/architecture.md), enforced by
 * test/unit/architecture/import-graph.test.ts. Paths are relative to the folder cruised.
 * Also usable by hand: npx depcruise src --config .dependency-cruiser.cjs
 */
/** The VS Code API: resolves to its type package (the module itself exists only inside VS Code). */
const VSCODE = '^vscode$|(^|/)node_modules/@types/vscode/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-not-to-vscode',
      comment: 'The core runs on plain Node (the CLI, tests): it never imports the VS Code API.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: VSCODE },
    },
    {
      name: 'core-not-to-hosts',
      comment: 'The core never imports a host (cli, extension) or the webview.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(cli|extension|webview)/' },
    },
    {
      name: 'cli-not-to-vscode',
      comment: 'The CLI runs outside VS Code.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: VSCODE },
    },
    {
      name: 'cli-not-to-extension',
      comment: 'The two hosts never import each other.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/(extension|webview)/' },
    },
    {
      name: 'extension-not-to-cli',
      comment: 'The two hosts never import each other.',
      severity: 'error',
      from: { path: '^src/extension/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'webview-not-to-core-at-run-time',
      comment: 'The webview runs in the browser: it may share the core\'s types, never its code.',
      severity: 'error',
      from: { path: '^src/webview/' },
      to: { path: '^src/(core|cli|extension)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'webview-not-to-vscode',
      comment: 'The webview talks to the extension only by messages.',
      severity: 'error',
      from: { path: '^src/webview/' },
      to: { path: VSCODE },
    },
    {
      name: 'protocol-is-a-leaf',
      comment: 'The messages between extension and webview import only zod and each other.',
      severity: 'error',
      from: { path: '^src/protocol/' },
      to: { pathNot: '^src/protocol/|(^|/)node_modules/zod/' },
    },
    {
      name: 'runtime-not-to-facade',
      comment: 'The runtime gets narrow dependencies; it never reaches back into the Pepe facade.',
      severity: 'error',
      from: { path: '^src/core/runtime/' },
      to: { path: '^src/core/pepe\\.ts$' },
    },
    {
      name: 'no-cycles',
      comment: 'No module imports itself through others (type-only imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
