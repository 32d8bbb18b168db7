import { join } from 'node:path';

export type CoreBundle = typeof import('./core-bundle.js');

let loaded: CoreBundle | undefined;

/**
 * Loads dist/extension-core.js, next to dist/extension.js, once. The path is computed so esbuild
 * leaves the require alone (bundling it here would put the whole core back into activation).
 */
export function loadCore(): CoreBundle {
  if (!loaded) {
    const file = join(__dirname, 'extension-core.js');
    loaded = require(file) as CoreBundle;
  }
  return loaded;
}
