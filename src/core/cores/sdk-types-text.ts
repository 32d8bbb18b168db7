import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The source text of sdk-types.ts, from which `pepe init`'s declarations are made. Every bundle
 * gets the text itself in place of this module (scripts/sdk-types-text.mjs, run by esbuild.mjs), so
 * the shipped declarations are always those of the types the code was built with; under the
 * sources (tests) it is read from beside this file.
 */
export const SDK_TYPES_SOURCE: string = readFileSync(join(import.meta.dirname, 'sdk-types.ts'), 'utf8');
