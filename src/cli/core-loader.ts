/**
 * The CLI's heavy half, loaded on first use. `pepe --help` and usage errors never load it; a
 * command that needs the core calls `loadCliCore()`. Under the sources (tsx) this is a plain
 * dynamic import; esbuild.mjs maps it to `require('./cli-core.js')`, a bundle of its own next to
 * dist/cli.js, so the entry bundle stays small (code splitting is not available for CommonJS).
 */
export type CliCore = typeof import('./core-bundle.js');

let loading: Promise<CliCore> | undefined;

export function loadCliCore(): Promise<CliCore> {
  loading ??= import('./core-bundle.js');
  return loading;
}
