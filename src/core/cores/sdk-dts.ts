import { SDK_TYPES_SOURCE } from './sdk-types-text.js';

/**
 * The author-facing declarations `pepe init` writes as `agent/pepe-core.d.ts`: the types of
 * sdk-types.ts in a global namespace `PepeCore`, so slot modules need no import. Made from the
 * text of sdk-types.ts, which the build puts into the bundles (sdk-types-text.ts): there is no
 * second copy to keep in step.
 */

export const DTS_HEADER =
  '// Types of the ctx a Pepe pipeline slot receives. Written by `pepe init`; safe to replace with a\n' +
  '// newer copy. Use them without importing: `export function process(ctx: PepeCore.InputContext)`.\n\n';

/** sdk-types.ts (a module) → the same declarations inside `declare namespace PepeCore { … }`. */
export function globalDeclarations(moduleSource: string): string {
  const body = moduleSource.slice(moduleSource.indexOf('*/') + 2).trim().replaceAll('export type ', 'type ').replaceAll('export interface ', 'interface ');
  const indented = body
    .split('\n')
    .map((l) => (l.trim() ? `  ${l}` : ''))
    .join('\n');
  return `${DTS_HEADER}declare namespace PepeCore {\n${indented}\n}\n`;
}

export const PEPE_CORE_DTS: string = globalDeclarations(SDK_TYPES_SOURCE);
