/**
 * dist/cli.js, the `pepe` program. `pepe --help` prints the help the build generated (the same
 * text commander prints at the default width of 80 columns) and `pepe --version` the version the
 * build was made from, without loading anything else; every other command goes on in start.ts.
 * Only the bundle runs this file.
 */
import { start } from './start.js';

declare const PEPE_HELP_TEXT: string | undefined;
declare const PEPE_VERSION: string | undefined;

const args = process.argv.slice(2);
const help = typeof PEPE_HELP_TEXT === 'string' && args.length === 1 && (args[0] === '--help' || args[0] === '-h');
// Commander wraps the help to a terminal's width, and to 80 columns when the output is not a terminal.
const version = typeof PEPE_VERSION === 'string' && args.length === 1 && (args[0] === '--version' || args[0] === '-V');
if (help && (!process.stdout.isTTY || process.stdout.columns === 80)) process.stdout.write(PEPE_HELP_TEXT);
else if (version) process.stdout.write(`${PEPE_VERSION}\n`);
else start();
