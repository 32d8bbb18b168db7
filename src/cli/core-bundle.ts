/**
 * What nearly every CLI command needs of the core: the facade and the adapters it is built with.
 * Built as dist/cli-core.js (scripts/cli-bundles.mjs) and loaded with `loadCliCore()`
 * (core-loader.ts); commands import only its types. A part of the core only some commands use
 * (agent cores, checkpoints, tasks, session export, the terminal renderer) is imported by that
 * command where it needs it: each is loaded on first use, never by `pepe slot list`.
 */
export { createPepe } from '../core/pepe.js';
export { beforeShellGrammarCompile } from '../core/permissions/bash-grammar.js';
export { cliVscodeUserMcp } from '../core/interop/external-mcp.js';
