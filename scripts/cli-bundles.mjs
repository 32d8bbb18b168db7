// The CLI's and the extension core's bundles. Each layer is loaded only when it is needed:
//
//   dist/cli.js              the program (src/cli/bin.ts): prints `--help` and `--version` itself,
//                            or turns on the V8 code cache (src/cli/code-cache.ts) and requires
//                            cli-main.js through it
//   dist/cli-main.js         commander and the command definitions
//   dist/cli-core.js         the CLI's way into the core (src/cli/core-bundle.ts), required by
//                            src/cli/core-loader.ts the first time a command needs the core
//   dist/extension-core.js   the extension's way into the core (src/extension/core-bundle.ts),
//                            required by dist/extension.js (esbuild.mjs) on first use
//   dist/NAME-HASH.js        chunks: what those share (one copy of the core for both hosts), and
//                            each part of the core the sources load with a dynamic import(), on
//                            first use
//   dist/cli-vendor/NAME.js  heavy dependencies only some commands use (the AI SDK providers,
//                            yaml, sucrase, execa, ...): where the core imports one there is a
//                            stand-in whose exports load the real bundle on first use
//
// Node built-ins few commands use get the same kind of stand-in (LAZY_BUILTINS).
//
// esbuild splits code into chunks only for ES modules, and VS Code (like the code cache) loads
// CommonJS: cli-main.js, cli-core.js and extension-core.js are built together as ES modules with
// splitting, then each file is turned into CommonJS on its own (its source map carried through),
// import() into require(). dist/cli.js is built on its own, before the code cache is on: it shares
// nothing with them (a chunk it shared would be read without the cache on every command).
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';

const ROOT = import.meta.dirname ? resolve(import.meta.dirname, '..') : process.cwd();
const DIST = resolve(ROOT, 'dist');

/**
 * Vendor bundle name → the packages in it. Add a package here when it is heavy and not needed by
 * every command. The core uses zod/mini; the AI SDK and the MCP client use zod's full API, from
 * one vendor bundle of its own (`zod`, below) rather than a copy each.
 */
export const LAZY_VENDORS = {
  'ai-sdk': ['@ai-sdk/anthropic', '@ai-sdk/openai-compatible'],
  yaml: ['yaml'],
  sucrase: ['sucrase'],
  execa: ['execa'],
  // Atomic writes: on load write-file-atomic patches fs, reads the thread id and starts signal-exit;
  // a command that writes nothing through them need not pay for that.
  'file-locks': ['write-file-atomic'],
  // The MCP client (with ajv, its JSON Schema validator): a third of the core, and only a command
  // that starts an MCP server uses it.
  'mcp-sdk': ['@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/client/sse.js', '@modelcontextprotocol/sdk/shared/stdio.js', '@modelcontextprotocol/sdk/client/streamableHttp.js'],
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
      // import() of a package (the MCP client's modules are imported so) gets an ES module naming
      // the stand-in's exports: its namespace then has them by name, each still loaded on first use
      // (the CommonJS stand-in itself would be its `default`).
      b.onResolve({ filter: new RegExp(`^(${Object.keys(where).map(escape).join('|')})$`) }, (args) => ({ path: args.path, namespace: args.kind === 'dynamic-import' ? 'pepe-lazy-esm' : 'pepe-lazy' }));
      b.onLoad({ filter: /.*/, namespace: 'pepe-lazy-esm' }, (args) => ({ loader: 'js', resolveDir: ROOT, contents: `export { ${where[args.path].keys.join(', ')} } from ${JSON.stringify(args.path)};` }));
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

/**
 * In the other vendor bundles, `zod` and `zod/v4` (zod's full API, which the AI SDK and the MCP
 * client build their schemas with) are dist/cli-vendor/zod.js. It shares zod's settings with the
 * core's zod/mini through zod's global configuration object.
 */
const zodFromVendor = {
  name: 'pepe-cli-zod-from-vendor',
  setup(b) {
    b.onResolve({ filter: /^zod(\/v4)?$/ }, () => ({ path: 'zod', namespace: 'pepe-zod' }));
    b.onLoad({ filter: /.*/, namespace: 'pepe-zod' }, () => ({ loader: 'js', contents: "module.exports = require(require('node:path').join(__dirname, 'zod.js'));" }));
  },
};

/**
 * In the AI SDK's bundle, `zod/v3` is the one thing the SDK takes from it: the names of zod 3's
 * schema kinds, for converting a zod 3 schema (which Pepe never hands it: its tools carry JSON
 * Schema). The object is zod's own, read from the package when the bundle is built; the rest of
 * zod 3 (a fifth of the bundle) stays out. Should the SDK import anything else from it, the build
 * fails on the missing export.
 */
const zodV3KindsOnly = {
  name: 'pepe-zod-v3-kinds-only',
  setup(b) {
    b.onResolve({ filter: /^zod\/v3$/ }, () => ({ path: 'zod/v3', namespace: 'pepe-zod-v3' }));
    b.onLoad({ filter: /.*/, namespace: 'pepe-zod-v3' }, () => ({
      loader: 'js',
      contents: `export const ZodFirstPartyTypeKind = Object.freeze(${JSON.stringify(requireFromRoot('zod/v3').ZodFirstPartyTypeKind)});`,
    }));
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

/** A chunk esbuild named `NAME-HASH.js` (and its map): removed before a build writes its own. */
const CHUNK = /-[A-Z0-9]{8}\.js(\.map)?$/;

/**
 * Builds dist/cli.js, cli-main.js, cli-core.js, extension-core.js and their chunks (see the top of
 * this file), given the options every bundle shares. `helpText`: what `pepe --help` prints, built
 * into dist/cli.js (withHelpText). `outdir` and `minifyWhitespace`: another folder, and readable
 * lines (for a profile that names lines).
 */
export async function splitBuild(shared, { helpText, outdir = DIST, minifyWhitespace = true } = {}) {
  await mkdir(outdir, { recursive: true });
  await build({
    ...shared, minifyWhitespace, minifySyntax: true, format: 'cjs', outfile: join(outdir, 'cli.js'), entryPoints: ['src/cli/bin.ts'],
    define: { PEPE_HELP_TEXT: helpText === undefined ? 'undefined' : JSON.stringify(helpText), PEPE_VERSION: VERSION },
    banner: { js: '#!/usr/bin/env node' }, supported: { 'dynamic-import': false },
    plugins: [...shared.plugins, await lazyBuiltins(), {
      name: 'pepe-cli-main-beside',
      setup(b) {
        b.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: './cli-main.js', external: true }));
      },
    }],
  });
  const result = await build({
    ...shared,
    // A short-lived process reads, decodes and scans all of its bundles each time: they are
    // minified (whitespace and syntax; names kept readable for --verbose stacks; source maps beside
    // them). That also leaves them pure ASCII (comments go), which V8 decodes and scans on its fast path.
    minifySyntax: true,
    format: 'esm',
    splitting: true,
    write: false,
    outdir,
    chunkNames: '[name]-[hash]',
    sourcemap: 'inline',
    entryPoints: { 'cli-main': 'src/cli/main.ts', 'cli-core': 'src/cli/core-bundle.ts', 'extension-core': 'src/extension/core-bundle.ts' },
    external: ['vscode'],
    define: { PEPE_VERSION: VERSION },
    plugins: [...shared.plugins, zodEnglishOnly, await lazyVendors(), await lazyBuiltins()],
  });
  const files = result.outputFiles.filter((f) => f.path.endsWith('.js'));
  const converted = await Promise.all(files.map(async (f) => {
    const out = await build({
      stdin: { contents: f.text, sourcefile: relative(ROOT, f.path), resolveDir: outdir, loader: 'js' },
      bundle: false, platform: 'node', target: shared.target, format: 'cjs', write: false, outfile: f.path, sourcemap: 'external',
      minifyWhitespace, minifySyntax: true, legalComments: 'none', logLevel: shared.logLevel,
      // A lazy import() becomes a require (no ES module loader start-up).
      supported: { 'dynamic-import': false },
    });
    return out.outputFiles;
  }));
  for (const old of readdirSync(outdir)) if (CHUNK.test(old)) await rm(join(outdir, old), { force: true });
  await Promise.all(converted.flat().map((o) => writeFile(o.path, o.contents)));
}

/** Builds again with `pepe --help`'s text built into dist/cli.js: the text the CLI just built prints. */
export async function withHelpText(shared) {
  const text = execFileSync(process.execPath, [resolve(ROOT, 'dist/cli.js'), '--help'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PEPE_CODE_CACHE: 'off' }, stdio: ['ignore', 'pipe', 'inherit'] });
  if (!text.startsWith('Usage: pepe')) throw new Error(`pepe --help printed no help: ${text.slice(0, 200)}`);
  await splitBuild(shared, { helpText: text });
}

/** esbuild options of the vendor bundles (dist/cli-vendor/), given the options every bundle shares. */
export async function vendorBuilds(shared) {
  await rm(resolve(DIST, 'cli-vendor'), { recursive: true, force: true }); // no stale vendor bundles
  const common = { ...shared, minifyWhitespace: true, minifySyntax: true, plugins: [...shared.plugins, zodEnglishOnly] };
  return [
    ...Object.entries(LAZY_VENDORS).map(([vendor, packages]) => ({
      ...common,
      stdin: {
        contents: packages.map((p, i) => (REQUIRED_VENDOR_PACKAGES.has(p) ? `export const p${i} = require(${JSON.stringify(p)});` : `export * as p${i} from ${JSON.stringify(p)};`)).join('\n'),
        resolveDir: ROOT,
        sourcefile: `${vendor}.js`,
      },
      outfile: `dist/cli-vendor/${vendor}.js`,
      plugins: [...common.plugins, zodFromVendor, zodV3KindsOnly],
    })),
    { ...common, stdin: { contents: "export * from 'zod';", resolveDir: ROOT, sourcefile: 'zod.js' }, outfile: 'dist/cli-vendor/zod.js' },
  ];
}
