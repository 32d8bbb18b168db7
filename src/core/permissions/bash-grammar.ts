import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type * as TreeSitter from 'web-tree-sitter';
import { errorMessage } from '../errors.js';

/**
 * The bash grammar the barrier reads commands with: tree-sitter-bash, run by web-tree-sitter (both
 * WebAssembly, no native code). Loading is asynchronous and happens once per process; after that
 * parsing is synchronous (a 200-character command takes about a tenth of a millisecond).
 *
 * Where the two .wasm files are found: next to the running bundle (the CommonJS bundles of the
 * CLI and the extension ship `tree-sitter.wasm.br` and `tree-sitter-bash.wasm.br` beside them,
 * brotli-compressed to keep the package small), else in node_modules (sources run through tsx).
 */

export type SyntaxNode = TreeSitter.Node;
export type SyntaxTree = TreeSitter.Tree;

const GRAMMAR_WASM = 'tree-sitter-bash.wasm';
const RUNTIME_WASM = 'tree-sitter.wasm';

let parser: TreeSitter.Parser | null = null;
let loading: Promise<TreeSitter.Parser> | null = null;
let loadError: Error | null = null;
let beforeCompile: (() => void) | null = null;

/**
 * Runs `hook` once, just before the grammar's WebAssembly is first compiled (not at all in a
 * process that never classifies a command line). The CLI sets V8's WebAssembly tier there.
 */
export function beforeShellGrammarCompile(hook: () => void): void {
  beforeCompile = hook;
}

/** Loads the grammar once; later calls return the same promise. Rejects with a clear message. */
export function loadShellGrammar(): Promise<void> {
  if (!loading) {
    loading = load().then(
      (p) => (parser = p),
      (e: unknown) => {
        loadError = new Error(`the bash grammar could not be loaded: ${errorMessage(e)}`);
        loading = null; // a later call may try again (a file restored, say)
        throw loadError;
      },
    );
  }
  return loading.then(() => undefined);
}

export function shellGrammarReady(): boolean {
  return parser !== null;
}

/** What parseBashTree throws before `loadShellGrammar()` has finished (and no load has failed). */
export class GrammarNotLoadedError extends Error {
  constructor() {
    super('the bash grammar is not loaded yet (await loadShellGrammar())');
  }
}

/** Parses with the loaded grammar. Throws when `loadShellGrammar()` has not finished. */
export function parseBashTree(source: string): SyntaxTree {
  if (!parser) throw loadError ?? new GrammarNotLoadedError();
  const tree = parser.parse(source);
  if (!tree) throw new Error('the bash grammar returned no tree');
  return tree;
}

async function load(): Promise<TreeSitter.Parser> {
  const mod = await importRuntime();
  const hook = beforeCompile;
  beforeCompile = null;
  hook?.();
  const runtime = wasmBytes(RUNTIME_WASM, 'web-tree-sitter/tree-sitter.wasm');
  await mod.Parser.init(runtime ? { wasmBinary: runtime } : {});
  const grammar = wasmBytes(GRAMMAR_WASM, 'tree-sitter-bash/tree-sitter-bash.wasm');
  if (!grammar) throw new Error(`${GRAMMAR_WASM} was not found next to the program or in node_modules`);
  const language = await mod.Language.load(grammar);
  const p = new mod.Parser();
  p.setLanguage(language);
  return p;
}

/**
 * A .wasm file's bytes: the bundles ship it brotli-compressed beside them (`NAME.wasm.br`, unpacked
 * here in memory); from sources it is the package's own file.
 */
function wasmBytes(file: string, request: string): Uint8Array | null {
  if (typeof __dirname === 'string') {
    const packed = join(__dirname, `${file}.br`);
    if (existsSync(packed)) return new Uint8Array(brotliDecompressSync(readFileSync(packed)));
  }
  const plain = locate(file, request);
  return plain ? new Uint8Array(readFileSync(plain)) : null;
}

/**
 * In the CommonJS bundles `require` exists and esbuild has bundled web-tree-sitter's CommonJS
 * build (its ES build needs `import.meta`, which a CommonJS bundle does not have). From sources
 * (ES modules under tsx) the package is imported normally; the specifier is a variable so the
 * bundler leaves that branch alone.
 */
async function importRuntime(): Promise<typeof TreeSitter> {
  if (typeof require === 'function') return require('web-tree-sitter') as typeof TreeSitter;
  const specifier = 'web-tree-sitter';
  return (await import(specifier)) as typeof TreeSitter;
}

/**
 * `file` next to the bundle, else `request` as node resolves it from Pepe's own code: the bundle's
 * folder, or (from sources, where there is no `__dirname`) the program that runs. Never from the
 * working directory: a workspace's node_modules is the workspace's, and a grammar planted there
 * could read `rm -rf ~` as harmless.
 */
function locate(file: string, request: string): string | null {
  const candidates: string[] = [];
  const bundled = typeof __dirname === 'string';
  if (bundled) candidates.push(join(__dirname, file));
  const base = bundled ? join(__dirname, 'noop.js') : process.argv[1];
  if (base) {
    try {
      candidates.push(createRequire(base).resolve(request));
    } catch {
      // not resolvable from there
    }
  }
  return candidates.find((c) => existsSync(c)) ?? null;
}

/**
 * Classifies a shell call, loading the bash grammar only when the reading needs it: a plain line
 * (`true`, `npm test`: plain-command.ts) is read without it, so the first command of a process
 * does not wait for the grammar to load. Anything that needs the grammar before it is there
 * stops the classification (it is pure), which runs again once the grammar has loaded.
 */
export async function classifyLoadingGrammar<T>(classify: () => T): Promise<T> {
  if (!shellGrammarReady()) {
    try {
      return classify();
    } catch (e) {
      if (!(e instanceof GrammarNotLoadedError)) throw e;
    }
    await loadShellGrammar();
  }
  return classify();
}
