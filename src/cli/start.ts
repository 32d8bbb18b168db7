/**
 * The `pepe` program's start once it has a command to run (bin.ts decides that): turns the code
 * cache on (code-cache.ts), then loads the commands (main.ts, bundled as dist/cli-main.js) through it.
 */
import { errorMessage } from '../core/errors.js';
import { enableAsciiBundleRead } from './bundle-read.js';
import { enableCodeCache } from './code-cache.js';

export function start(): void {
  // (V8's WebAssembly tier for the bash grammar is set when the grammar is first loaded: core-loader.ts.)
  // zod compiles a parser (`new Function`) for each object schema the first time it parses with it:
  // worth it in the long-lived extension host, a loss in a process that parses most schemas once
  // (about 4 % of a mock `pepe run` or a `slot list`, paired; resuming a 50,000-message session costs
  // about 9 % more, still far inside its budget). zod takes its settings from this global object when
  // it loads (what `z.config()` changes); it must be set before the core, and its schemas, load.
  (globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig ??= { jitless: true };
  enableAsciiBundleRead(__dirname);
  enableCodeCache(__dirname, process.env, commandKey(process.argv.slice(2)));
  import('./main.js')
    .then(({ main }) => main(process.argv.slice(2)))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (e: unknown) => {
        // (A failure to load the commands at all: stdio.ts, which they write with, is theirs.)
        process.stderr.write(`pepe: ${errorMessage(e)}\n`);
        process.exitCode = 1;
      },
    );
}

/** The command's first two words (`slot list`, `run myagent`): what the code cache records it as. */
function commandKey(argv: string[]): string {
  return argv
    .filter((a) => !a.startsWith('-'))
    .slice(0, 2)
    .map((w) => w.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40))
    .join(' ');
}
