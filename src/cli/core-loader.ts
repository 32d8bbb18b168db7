/**
 * The CLI's heavy half, loaded on first use. `pepe --help` and usage errors never load it; a
 * command that needs the core calls `loadCliCore()`, and one that needs a part only some commands
 * use, `loadCliExtras()`. Each is a dynamic import: in the build, dist/cli-core.js and a chunk of
 * its own (scripts/cli-bundles.mjs), required on first use.
 */
import { setFlagsFromString } from 'node:v8';

export type CliCore = typeof import('./core-bundle.js');
export type CliExtras = typeof import('./core-extras.js');

let loading: Promise<CliCore> | undefined;

export function loadCliCore(): Promise<CliCore> {
  loading ??= import('./core-bundle.js').then((core) => {
    core.beforeShellGrammarCompile(baselineWasmOnly);
    return core;
  });
  return loading;
}

let extras: Promise<CliExtras> | undefined;

/** The parts of the core only some commands use (core-extras.ts), loaded on first use. */
export function loadCliExtras(): Promise<CliExtras> {
  extras ??= loadCliCore().then(() => import('./core-extras.js'));
  return extras;
}

/**
 * The bash grammar is WebAssembly (tree-sitter). V8 compiles it with its baseline compiler and then
 * recompiles it with the optimising one in the background: for a short-lived `pepe` process that
 * second compile is pure cost (about 0.9 s of CPU per process that classifies a command, measured
 * with whole-process timings), while the baseline code parses a command line in well under a
 * millisecond. Set just before the grammar is first compiled, so a command that classifies no
 * command line does not load node:v8 for it (node:v8 brings the streams with it: a few ms of every
 * start); the extension host is left alone.
 */
function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}
