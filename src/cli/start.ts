/**
 * The `pepe` program's start once it has a command to run (bin.ts decides that): turns the code
 * cache on (code-cache.ts), then loads the commands (main.ts, bundled as dist/cli-main.js) through it.
 */
import { setFlagsFromString } from 'node:v8';
import { errorMessage } from '../core/errors.js';
import { enableAsciiBundleRead } from './bundle-read.js';
import { enableCodeCache } from './code-cache.js';

// The bash grammar is WebAssembly (tree-sitter). V8 compiles it with its baseline compiler and then
// recompiles it with the optimising one in the background: for a short-lived `pepe` process that
// second compile is pure cost (about 0.9 s of CPU per process that classifies a command, measured
// with whole-process timings), while the baseline code parses a command line in well under a
// millisecond. Set before any WebAssembly is compiled; the extension host is left alone.
setFlagsFromString('--liftoff-only');
enableAsciiBundleRead(__dirname);
enableCodeCache(__dirname);
import('./main.js')
  .then(({ main }) => main(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`pepe: ${errorMessage(e)}\n`);
      process.exitCode = 1;
    },
  );
