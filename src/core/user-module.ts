import { extname } from 'node:path';
import { transform } from 'sucrase';

/**
 * How Pepe turns a person's module (a slot plugin, an agent-core slot or helper) into CommonJS it
 * can evaluate, the one place for both: `.ts` loses its types, `.ts`/`.js`/`.mjs` get their ES
 * module syntax rewritten to `require`/`exports` (sucrase: small, pure JavaScript, keeps line
 * numbers); `.cjs` and anything else is returned as it is.
 */
export function transpileUserModule(file: string, source: string): string {
  const ext = extname(file);
  if (ext !== '.ts' && ext !== '.js' && ext !== '.mjs') return source;
  return transform(source, { transforms: ext === '.ts' ? ['typescript', 'imports'] : ['imports'], filePath: file }).code;
}
