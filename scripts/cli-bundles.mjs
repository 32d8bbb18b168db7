// The CLI's bundles (esbuild code splitting is not available for CommonJS, so the split is done
// by hand). Each layer is loaded only when a command needs it:
//
//   dist/cli.js              the program: turns on the V8 code cache (src/cli/code-cache.ts), then
//                            requires cli-main.js through it
//   dist/cli-main.js         commander and the command definitions: all `pepe --help` loads
//   dist/cli-core.js         the core and the terminal adapters (src/cli/core-bundle.ts), required
//                            by src/cli/core-loader.ts the first time a command needs the core
//   dist/cli-errors.js       src/core/errors.ts, shared by all of them so `instanceof PepeError`
//                            holds across bundles
//   dist/cli-vendor/NAME.js  heavy dependencies only some commands use (the AI SDK providers,
//                            yaml, sucrase, execa): in cli-core.js each is a stand-in whose
//                            exports load the real bundle on first use
//
// Node built-ins few commands use get the same kind of stand-in (LAZY_BUILTINS).
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { relative, resolve, sep } from 'node:path';

const ROOT = import.meta.dirname ? resolve(import.meta.dirname, '..') : process.cwd();
const ERRORS = resolve(ROOT, 'src/core/errors.ts');
const CORE_BUNDLE = resolve(ROOT, 'src/cli/core-bundle.ts');
const MAIN = resolve(ROOT, 'src/cli/main.ts');
const CORE_DIR = resolve(ROOT, 'src/core') + '/';
const EXTENSION_CORE = resolve(ROOT, 'src/extension/core-bundle.ts');

/**
 * Vendor bundle name → the packages in it. Add a package here when it is heavy and not needed by
 * every command. The AI SDK bundle takes zod from cli-core.js (already loaded by then) rather than
 * carrying a second copy.
 */
export const LAZY_VENDORS = {
  'ai-sdk': ['@ai-sdk/anthropic', '@ai-sdk/openai-compatible'],
  yaml: ['yaml'],
  sucrase: ['sucrase'],
  execa: ['execa'],
  // Lock files and atomic writes: on load they patch fs, read the thread id and start signal-exit;
  // a command that writes nothing through them need not pay for that.
  'file-locks': ['proper-lockfile', 'write-file-atomic'],
  // The MCP client (with ajv, its JSON Schema validator): a third of the core, and only a command
  // that starts an MCP server uses it.
  'mcp-sdk': ['@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/client/sse.js', '@modelcontextprotocol/sdk/client/stdio.js', '@modelcontextprotocol/sdk/client/streamableHttp.js'],
  // The bash grammar's runtime, loaded the first time a command line is classified.
  'tree-sitter': ['web-tree-sitter'],
};

/**
 * Packages the sources `require` (their CommonJS build; web-tree-sitter's ES build needs
 * `import.meta`, which a CommonJS bundle does not have): their vendor bundle requires them too.
 */
/** package.json's version, for `pepe --version` (in dist/cli.js and dist/cli-main.js). */
const VERSION = JSON.stringify(JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).version);

const REQUIRED_VENDOR_PACKAGES = new Set(['web-tree-sitter']);
const requireFromRoot = createRequire(resolve(ROOT, 'package.json'));

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const sourceOf = (args) => resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');

/** A source module → the bundle file it is in, for the imports that cross from one bundle to another. */
const bundleOf = (map) => ({
  name: 'pepe-cli-bundles',
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, (args) => {
      const target = map[sourceOf(args)];
      return target ? { path: target, external: true } : undefined;
    });
  },
});

/** Each lazy package becomes a CommonJS stand-in with one getter per export, loading the real bundle on first access. */
async function lazyVendors() {
  const where = {};
  for (const [vendor, packages] of Object.entries(LAZY_VENDORS)) {
    for (const [i, pkg] of packages.entries()) {
      const mod = REQUIRED_VENDOR_PACKAGES.has(pkg) ? { default: undefined, ...requireFromRoot(pkg) } : await import(pkg);
      where[pkg] = { vendor, ns: `p${i}`, keys: Object.keys(mod).filter((k) => k !== 'default'), callable: typeof mod.default === 'function' };
    }
  }
  return {
    name: 'pepe-cli-lazy-vendors',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${Object.keys(where).map(escape).join('|')})$`) }, (args) => ({ path: args.path, namespace: 'pepe-lazy' }));
      b.onLoad({ filter: /.*/, namespace: 'pepe-lazy' }, (args) => {
        const { vendor, ns, keys, callable } = where[args.path];
        return {
          loader: 'js',
          contents: [
            'let real;',
            `const load = () => (real ??= require(require('node:path').join(__dirname, 'cli-vendor', ${JSON.stringify(`${vendor}.js`)})).${ns});`,
            // A CommonJS package whose exports are a function (`module.exports = lock`): the stand-in is one too.
            ...(callable ? ['module.exports = function (...args) { return load().default.apply(this, args); };'] : []),
            `for (const key of ${JSON.stringify(keys)}) Object.defineProperty(module.exports, key, { enumerable: true, get: () => load()[key] });`,
          ].join('\n'),
        };
      });
    },
  };
}

/**
 * Node built-ins that cost start-up time (child_process brings net, dgram and the streams with it)
 * but few commands use: the same stand-ins, requiring the built-in on first access. commander, for
 * one, requires child_process for a feature `pepe` does not use; the code cache asks v8 only at exit. Only modules whose exports are an
 * object belong here (not `assert`, which is a function).
 */
export const LAZY_BUILTINS = ['child_process', 'crypto', 'readline/promises', 'tty', 'v8', 'worker_threads', 'zlib'];

async function lazyBuiltins() {
  const keys = {};
  for (const name of LAZY_BUILTINS) keys[name] = Object.keys(await import(`node:${name}`)).filter((k) => k !== 'default');
  return {
    name: 'pepe-cli-lazy-builtins',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(node:)?(${LAZY_BUILTINS.map(escape).join('|')})$`) }, (args) =>
        // The stand-in's own require is of the real built-in.
        args.namespace === 'pepe-lazy-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'pepe-lazy-builtin' },
      );
      b.onLoad({ filter: /.*/, namespace: 'pepe-lazy-builtin' }, (args) => ({
        loader: 'js',
        contents: [
          'let real;',
          `const load = () => (real ??= require(${JSON.stringify(`node:${args.path}`)}));`,
          `for (const key of ${JSON.stringify(keys[args.path])}) Object.defineProperty(module.exports, key, { enumerable: true, get: () => load()[key] });`,
        ].join('\n'),
      }));
    },
  };
}

/** In a vendor bundle, `zod` and `zod/v4` are cli-core.js's copy (exported there as zodForVendors). */
const zodFromCore = {
  name: 'pepe-cli-zod-from-core',
  setup(b) {
    b.onResolve({ filter: /^zod(\/v4)?$/ }, () => ({ path: 'zod', namespace: 'pepe-zod' }));
    b.onLoad({ filter: /.*/, namespace: 'pepe-zod' }, () => ({ loader: 'js', contents: "module.exports = require(require('node:path').join(__dirname, '..', 'cli-core.js')).zodForVendors;" }));
  },
};

/**
 * zod's 40-odd message translations (400 KB, a sixth of cli-core.js) are reachable only through
 * `z.locales`, which nothing here uses (the messages are English): the bundles get English alone.
 * Every byte of a bundle is read and decoded on every start, code cache or not.
 */
export const zodEnglishOnly = {
  name: 'pepe-zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ loader: 'js', contents: 'export { default as en } from "./en.js";', resolveDir: resolve(ROOT, 'node_modules/zod/v4/locales') }));
  },
};

/**
 * The core modules the extension's core bundle imports itself (from outside src/core): cli-core.js
 * exports each of them (as `sharedCore`), so dist/extension-core.js takes them from there instead
 * of carrying a second copy of the core (the .vsix ships both).
 */
async function extensionCoreImports(shared) {
  const found = new Set();
  await build({
    ...shared, entryPoints: [EXTENSION_CORE], write: false, outdir: resolve(ROOT, 'dist'), sourcemap: false, external: ['vscode'], logLevel: 'error',
    plugins: [...shared.plugins, {
      name: 'pepe-core-imports',
      setup(b) {
        b.onResolve({ filter: /\.js$/ }, (args) => {
          const source = sourceOf(args);
          if (!source.startsWith(CORE_DIR) || args.importer.startsWith(CORE_DIR) || !existsSync(source)) return undefined;
          found.add(relative(ROOT, source).split(sep).join('/'));
          return { path: source, external: true };
        });
      },
    }],
  });
  return [...found].sort();
}

/** In dist/extension-core.js: each shared core module (and zod) is cli-core.js's copy. */
const coreFromCli = (modules) => ({
  name: 'pepe-core-from-cli',
  setup(b) {
    const load = "require(require('node:path').join(__dirname, 'cli-core.js'))";
    b.onResolve({ filter: /\.js$/ }, (args) => {
      if (args.importer.startsWith(CORE_DIR)) return undefined;
      const rel = relative(ROOT, sourceOf(args)).split(sep).join('/');
      return modules.includes(rel) ? { path: rel, namespace: 'pepe-shared-core' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'pepe-shared-core' }, (args) => ({ loader: 'js', contents: `module.exports = ${load}.sharedCore[${JSON.stringify(args.path)}];` }));
    b.onResolve({ filter: /^zod$/ }, () => ({ path: 'zod', namespace: 'pepe-shared-zod' }));
    b.onLoad({ filter: /.*/, namespace: 'pepe-shared-zod' }, () => ({ loader: 'js', contents: `module.exports = ${load}.zodForVendors;` }));
  },
});

/**
 * dist/extension-core.js: the extension's own half of the core bundle. The core itself, zod and
 * the heavy dependencies are the CLI's bundles (cli-core.js, cli-vendor/), required from it: one
 * copy of each in the .vsix.
 */
export async function extensionCoreBuild(shared) {
  const modules = await extensionCoreImports(shared);
  return { ...shared, entryPoints: { 'extension-core': EXTENSION_CORE }, outdir: 'dist', external: ['vscode'], plugins: [...shared.plugins, zodEnglishOnly, coreFromCli(modules), await lazyVendors()] };
}

/**
 * The options of dist/cli.js (the first of cliBuilds) with `pepe --help`'s text built in: the text
 * the CLI just built prints, so `pepe --help` need not load commander and the command definitions.
 */
export function withHelpText(cliOptions) {
  const text = execFileSync(process.execPath, [resolve(ROOT, 'dist/cli.js'), '--help'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PEPE_CODE_CACHE: 'off' }, stdio: ['ignore', 'pipe', 'inherit'] });
  if (!text.startsWith('Usage: pepe')) throw new Error(`pepe --help printed no help: ${text.slice(0, 200)}`);
  return { ...cliOptions, define: { ...cliOptions.define, PEPE_HELP_TEXT: JSON.stringify(text) } };
}

/** esbuild options for every CLI bundle, given the options shared by all bundles. */
export async function cliBuilds(shared) {
  const sharedModules = await extensionCoreImports(shared);
  await rm(resolve(ROOT, 'dist/cli-vendor'), { recursive: true, force: true }); // no stale vendor bundles
  // A short-lived process reads, decodes and scans all of its bundles each time: the CLI's are
  // minified (whitespace and syntax; names kept readable for --verbose stacks; source maps beside them).
  // That also leaves them pure ASCII (comments go), which V8 decodes and scans on its fast path.
  const common = { ...shared, minifyWhitespace: true, minifySyntax: true, plugins: [...shared.plugins, zodEnglishOnly] };
  return [
    // `supported`: a lazy import() becomes a require (no ES module loader start-up).
    // PEPE_HELP_TEXT: none in this build; withHelpText builds it again with the help it prints.
    { ...common, entryPoints: { cli: 'src/cli/bin.ts' }, outdir: 'dist', define: { PEPE_HELP_TEXT: 'undefined', PEPE_VERSION: VERSION }, banner: { js: '#!/usr/bin/env node' }, supported: { 'dynamic-import': false }, plugins: [...common.plugins, bundleOf({ [MAIN]: './cli-main.js', [ERRORS]: './cli-errors.js' }), await lazyBuiltins()] },
    // cli-main.js gets the vendor stand-ins too (yaml, for front matter, would be half of `--help`).
    { ...common, entryPoints: { 'cli-main': 'src/cli/main.ts' }, outdir: 'dist', define: { PEPE_VERSION: VERSION }, supported: { 'dynamic-import': false }, plugins: [...common.plugins, bundleOf({ [ERRORS]: './cli-errors.js', [CORE_BUNDLE]: './cli-core.js' }), await lazyVendors(), await lazyBuiltins()] },
    {
      ...common,
      // The CLI's core, and every core module the extension's core bundle takes from it.
      stdin: {
        contents: [
          "export * from './src/cli/core-bundle.js';",
          ...sharedModules.map((m, i) => `import * as m${i} from './${m.replace(/\.ts$/, '.js')}';`),
          `export const sharedCore = { ${sharedModules.map((m, i) => `${JSON.stringify(m)}: m${i}`).join(', ')} };`,
        ].join('\n'),
        resolveDir: ROOT, sourcefile: 'cli-core.ts', loader: 'ts',
      },
      outfile: 'dist/cli-core.js',
      plugins: [...common.plugins, bundleOf({ [ERRORS]: './cli-errors.js' }), await lazyVendors(), await lazyBuiltins()] },
    { ...common, entryPoints: { 'cli-errors': 'src/core/errors.ts' }, outdir: 'dist' },
    ...Object.entries(LAZY_VENDORS).map(([vendor, packages]) => ({
      ...common,
      stdin: {
        contents: packages.map((p, i) => (REQUIRED_VENDOR_PACKAGES.has(p) ? `export const p${i} = require(${JSON.stringify(p)});` : `export * as p${i} from ${JSON.stringify(p)};`)).join('\n'),
        resolveDir: ROOT,
        sourcefile: `${vendor}.js`,
      },
      outfile: `dist/cli-vendor/${vendor}.js`,
      plugins: [...common.plugins, zodFromCore],
    })),
  ];
}
