import { execFileSync } from 'node:child_process';
import { ROOT } from './suites/extension.js';

let built = false;

/**
 * Builds dist/ from the current sources once per bench run, before the first suite that runs the
 * CLI bundles, so no figure is of an earlier build.
 */
export function buildOnce(): void {
  if (built) return;
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  built = true;
}

/** dist/ was rebuilt some other way (the vsix suite's `npm run package`): the next suite that needs the CLI builds again. */
export function builtElsewhere(): void {
  built = false;
}
