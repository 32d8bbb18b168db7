// esbuild plugin: replaces src/core/cores/sdk-types-text.ts with the text of sdk-types.ts as a
// string constant, so `pepe init` writes declarations generated from the real types at build time.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const MODULE = join(ROOT, 'src/core/cores/sdk-types-text.ts');
const TYPES = join(ROOT, 'src/core/cores/sdk-types.ts');

export const sdkTypesText = {
  name: 'pepe-sdk-types-text',
  setup(b) {
    b.onLoad({ filter: /sdk-types-text\.ts$/ }, async (args) => {
      if (resolve(args.path) !== MODULE) return undefined;
      return { loader: 'ts', contents: `export const SDK_TYPES_SOURCE: string = ${JSON.stringify(await readFile(TYPES, 'utf8'))};\n`, watchFiles: [TYPES] };
    });
  },
};
