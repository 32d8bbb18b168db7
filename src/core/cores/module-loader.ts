import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { runInThisContext } from 'node:vm';
import { errorMessage } from '../errors.js';
import { transpileUserModule } from '../user-module.js';

/** Module files a slot or helper may be written in, in the order a bare stem is tried. */
export const MODULE_EXTENSIONS = ['.ts', '.js', '.mjs', '.cjs'] as const;
const RESOLVE_EXTENSIONS = [...MODULE_EXTENSIONS, '.json'];

/** A module could not be loaded; `line`/`column` point into `file` when known. */
export class ModuleLoadError extends Error {
  constructor(readonly file: string, message: string, readonly line = 1, readonly column = 1) {
    super(message);
    this.name = 'ModuleLoadError';
  }
}

interface CachedModule {
  exports: unknown;
  loaded: boolean;
}

/**
 * A small CommonJS loader for agent-core modules (spec 7): `.ts`, `.js` and `.mjs` files are
 * transpiled with sucrase (TypeScript and ES module syntax to CommonJS; line numbers kept) and
 * run in this thread with their own `require`. It needs no bundler or require hook, so it works
 * the same from the bundled extension, the bundled CLI and the sources under test.
 *
 * Relative imports are isolated per slot folder: a module in `agent/<phase>/<slot>/` may import
 * files in that folder and in `agent/lib/`; a module in `agent/lib/` may import only `agent/lib/`.
 * Packages and Node built-ins resolve as Node would from the importing file.
 *
 * Each loader has its own cache keyed by absolute path: one loader per loaded core, so a reload
 * (a new `loadCore`) sees edited files.
 */
export class CoreModuleLoader {
  private readonly cache = new Map<string, CachedModule>();
  readonly libDir: string;

  constructor(readonly surfaceRoot: string) {
    this.libDir = join(surfaceRoot, 'lib');
  }

  /** Loads (once) and returns a module's exports. Throws ModuleLoadError. */
  load(file: string): Record<string, unknown> {
    const exports = this.require(resolve(file));
    return (exports && (typeof exports === 'object' || typeof exports === 'function') ? exports : { default: exports }) as Record<string, unknown>;
  }

  private require(file: string): unknown {
    const cached = this.cache.get(file);
    if (cached) return cached.exports;
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ModuleLoadError(file, `cannot read ${file}: ${errorMessage(e)}`);
    }
    const ext = extname(file);
    const module: CachedModule & { exports: unknown } = { exports: {}, loaded: false };
    this.cache.set(file, module);
    try {
      if (ext === '.json') {
        module.exports = JSON.parse(source);
      } else {
        const code = transpileUserModule(file, source);
        // Wrapped on the first line so stack traces keep the file's own line numbers.
        const wrapper = runInThisContext(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename: file }) as (
          exports: unknown,
          require: (spec: string) => unknown,
          module: { exports: unknown },
          filename: string,
          dirname: string,
        ) => void;
        wrapper.call(module.exports, module.exports, (spec: string) => this.requireFrom(file, spec), module, file, dirname(file));
      }
      module.loaded = true;
      return module.exports;
    } catch (e) {
      this.cache.delete(file);
      if (e instanceof ModuleLoadError) throw e;
      const where = errorLocation(e, file);
      throw new ModuleLoadError(file, `${errorMessage(e)}`.replace(/^Error transforming [^:]+: /, ''), where.line, where.column);
    }
  }

  private requireFrom(importer: string, spec: string): unknown {
    if (!spec.startsWith('.') && !spec.startsWith('/')) {
      const bare = spec.startsWith('node:') ? spec.slice(5) : spec;
      if (builtinModules.includes(bare) || builtinModules.includes(spec)) return createRequire(importer)(spec);
      try {
        return createRequire(importer)(spec);
      } catch (e) {
        throw new Error(`cannot import "${spec}" from ${this.rel(importer)}: ${errorMessage(e)}`);
      }
    }
    const target = resolveFile(resolve(dirname(importer), spec));
    if (!target) throw new Error(`cannot import "${spec}" from ${this.rel(importer)}: no such file (tried ${RESOLVE_EXTENSIONS.join(', ')} and index files)`);
    const allowed = this.allowedRoots(importer);
    if (!allowed.some((root) => inside(root, target))) {
      throw new Error(
        `${this.rel(importer)} may not import "${spec}" (${this.rel(target)}): relative imports are isolated per slot folder; put shared code in agent/lib/`,
      );
    }
    return this.require(target);
  }

  /** A slot module sees its own slot folder and lib/; lib/ sees only lib/; anything else its own folder and lib/. */
  private allowedRoots(importer: string): string[] {
    if (inside(this.libDir, importer)) return [this.libDir];
    const rel = relative(this.surfaceRoot, importer).split(sep);
    if (rel.length >= 3 && ['bootstrap', 'input', 'output'].includes(rel[0]!) && !rel[0]!.startsWith('..')) {
      return [join(this.surfaceRoot, rel[0]!, rel[1]!), this.libDir];
    }
    return [dirname(importer), this.libDir];
  }

  private rel(file: string): string {
    const r = relative(dirname(this.surfaceRoot), file);
    return r.startsWith('..') ? file : r;
  }
}

/** `x` as given, with a module extension, `x.js` → `x.ts` (TypeScript's ESM convention), or `x/index.*`. */
export function resolveFile(base: string): string | null {
  const isFile = (p: string) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (isFile(base) && RESOLVE_EXTENSIONS.includes(extname(base))) return base;
  for (const ext of RESOLVE_EXTENSIONS) if (isFile(base + ext)) return base + ext;
  if (/\.(m|c)?js$/.test(base)) {
    const ts = base.replace(/\.(m|c)?js$/, '.ts');
    if (isFile(ts)) return ts;
  }
  if (existsSync(base)) for (const ext of MODULE_EXTENSIONS) if (isFile(join(base, `index${ext}`))) return join(base, `index${ext}`);
  return null;
}

function inside(root: string, file: string): boolean {
  const r = relative(root, file);
  return r === '' || (!r.startsWith('..') && !r.startsWith(sep) && !/^[A-Za-z]:/.test(r));
}

/** Where a transpile or evaluation error points in `file`, when it says. */
function errorLocation(e: unknown, file: string): { line: number; column: number } {
  const loc = (e as { loc?: { line?: number; column?: number } } | null)?.loc;
  if (loc && typeof loc.line === 'number') return { line: loc.line, column: Math.max(1, (loc.column ?? 0) + 1) };
  const stack = e instanceof Error ? (e.stack ?? '') : '';
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  // Lines survive transpiling; columns do not (sucrase rewrites imports), so only the line is kept.
  if (m) return { line: Number(m[1]), column: 1 };
  return { line: 1, column: 1 };
}
