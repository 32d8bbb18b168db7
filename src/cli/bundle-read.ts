import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { join, sep } from 'node:path';

type LoadJs = (this: unknown, module: NodeJS.Module & { _compile(content: string, filename: string): unknown }, filename: string) => unknown;

/**
 * Reads the CLI's own bundles (files under `bundleDir`) as one-byte text when they are pure ASCII,
 * which the build makes them (minified, no comments). Node 20 reads a CommonJS file as UTF-8, and
 * decoding the 1.4 MB core bundle that way costs about 30 ms of CPU on every command that loads
 * it, against well under a millisecond for the same bytes read as Latin-1 (for ASCII the two give
 * the same text). A file with any other byte, or outside `bundleDir`, loads as Node loads it.
 *
 * Only when `bundleDir` is a CommonJS package of its own (its package.json says so, as dist/'s
 * does): Node's own loader is what refuses to `require` an ES module, and it is left in charge of
 * everything else.
 */
export function enableAsciiBundleRead(bundleDir: string): boolean {
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(join(bundleDir, 'package.json'), 'utf8'));
  } catch {
    return false;
  }
  if (typeof pkg !== 'object' || pkg === null || (pkg as { type?: unknown }).type !== 'commonjs') return false;
  const prefix = bundleDir.endsWith(sep) ? bundleDir : bundleDir + sep;
  const extensions = (Module as unknown as { _extensions: Record<string, LoadJs> })._extensions;
  const loadJs = extensions['.js'];
  if (!loadJs) return false;
  extensions['.js'] = function (module, filename) {
    if (!filename.startsWith(prefix) || filename.slice(prefix.length).includes('node_modules')) return loadJs.call(this, module, filename);
    let bytes: Buffer;
    try {
      bytes = readFileSync(filename);
    } catch {
      return loadJs.call(this, module, filename); // Node reports it as it would
    }
    if (!isAscii(bytes)) return loadJs.call(this, module, filename);
    return module._compile(bytes.toString('latin1'), filename);
  };
  return true;
}
