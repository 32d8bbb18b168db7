/**
 * dist/cli.js, the `pepe` program: turns the code cache on (code-cache.ts), then loads the
 * commands (main.ts, bundled as dist/cli-main.js) through it. Only the bundle runs this file.
 */
import { errorMessage } from '../core/errors.js';
import { enableCodeCache } from './code-cache.js';

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
