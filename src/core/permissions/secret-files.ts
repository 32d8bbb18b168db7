import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { looksLikeSecretFile } from '../secrets/secret-file-names.js';
import type { PathFact } from '../tools/tool.js';

/** The words of a shell call, roughly: enough to find the file names and paths it mentions. */
function shellWords(tool: string, args: unknown): string[] {
  const a = (args ?? {}) as Record<string, unknown>;
  if (tool === 'bash' && typeof a.command === 'string') return a.command.split(/[\s;|&<>()'"`=$]+/).filter((w) => w !== '');
  if (tool === 'run_script') {
    const argv = a.argv ?? a.args;
    return [a.program, ...(Array.isArray(argv) ? argv : [])].filter((w): w is string => typeof w === 'string' && w !== '');
  }
  return [];
}

/** The secret-looking files a call reads or names (real paths for file tools, words for shell tools). */
export function secretFilesOf(tool: string, args: unknown, paths: readonly PathFact[]): string[] {
  if (tool === 'read_file') return paths.filter((p) => p.access === 'read' && looksLikeSecretFile(p.real)).map((p) => p.real);
  return [...new Set(shellWords(tool, args).filter(looksLikeSecretFile))];
}

const NOT_A_READ = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2']);

/**
 * Whether a shell call names a place outside the folder it runs in (`cat ~/.bashrc`,
 * `grep KEY /etc/app.conf`, `../other`, a change of folder): commands may read outside the
 * workspace unasked, so such a run counts as having read there, and outbound channels ask.
 */
export function shellReachesOutside(tool: string, args: unknown, cwd: string): boolean {
  const outside = (path: string, base: string) => {
    const rel = relative(base, path);
    return rel.startsWith('..') || isAbsolute(rel);
  };
  let realCwd: string | null = null;
  return shellWords(tool, args)
    .slice(0, MAX_WORDS)
    .some((w) => {
      if (w === 'cd' || w === 'pushd' || w.startsWith('~')) return true;
      if (NOT_A_READ.has(w)) return false;
      if (isAbsolute(w) || w.split('/').includes('..')) return outside(resolve(cwd, w), resolve(cwd));
      // A link in the workspace that leads out (`notes -> /home/me/.bashrc`), named as is.
      try {
        realCwd ??= realpathSync(cwd);
        return outside(realpathSync(resolve(cwd, w)), realCwd);
      } catch {
        return false; // not there (or not readable): nothing read through it
      }
    });
}

/** Words looked at on disk per call, at most. */
const MAX_WORDS = 256;
