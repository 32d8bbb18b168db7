import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { PathFact } from '../tools/tool.js';
import type { RiskHint } from './risk-kinds.js';
import { visible } from '../display.js';

/**
 * Writes that change what runs later (spec 5.1, 8.1): a file tool runs on the host, outside the
 * sandbox, so a file it writes can make a program the person runs next (git, the editor, a shell,
 * npm) start something: `core.fsmonitor` in `.git/config`, a task in `.vscode/tasks.json`, a line
 * in `.envrc`, a `postinstall` script. Such a write carries `control_file`, which only a grant for
 * exactly that call covers (risk-kinds.ts). Judged on the real path (every link followed), at any
 * depth, inside the workspace or not.
 */

/** Folders whose whole content decides what a program runs. */
const CONTROL_FOLDERS: Readonly<Record<string, string>> = {
  '.git': 'a git control file: git obeys its configuration, hooks and the paths it points to',
  '.husky': 'a git hook installed by husky',
  '.githooks': 'a git hooks folder',
  '.git-hooks': 'a git hooks folder',
  '.devcontainer': 'a dev container definition: the editor builds and runs what it says',
};

/** Files, by name, that decide what a program runs. */
const CONTROL_NAMES: Readonly<Record<string, string>> = {
  '.git': 'a git file pointing git at another repository folder',
  '.gitmodules': 'git submodule settings (which repositories git fetches and enters)',
  '.gitattributes': 'git attributes (which filter, diff and merge drivers git runs on files)',
  '.pre-commit-config.yaml': 'pre-commit hooks (commands run on git commit)',
  'lefthook.yml': 'lefthook git hooks', '.lefthook.yml': 'lefthook git hooks', 'lefthook.yaml': 'lefthook git hooks', '.lefthook.yaml': 'lefthook git hooks',
  '.huskyrc': 'husky git hooks', '.lintstagedrc': 'commands lint-staged runs on git commit',
  '.devcontainer.json': 'a dev container definition: the editor builds and runs what it says',
  '.bashrc': 'a shell start-up file', '.bash_profile': 'a shell start-up file', '.bash_login': 'a shell start-up file', '.bash_logout': 'a shell start-up file',
  '.profile': 'a shell start-up file', '.zshrc': 'a shell start-up file', '.zshenv': 'a shell start-up file', '.zprofile': 'a shell start-up file',
  '.zlogin': 'a shell start-up file', '.zlogout': 'a shell start-up file', '.kshrc': 'a shell start-up file', '.cshrc': 'a shell start-up file',
  '.tcshrc': 'a shell start-up file', 'config.fish': 'a shell start-up file',
  '.envrc': 'a direnv file: your shell runs it when you enter the folder',
  '.npmrc': 'npm settings (scripts shell, hooks, registries)', '.yarnrc': 'yarn settings', '.yarnrc.yml': 'yarn settings (yarnPath runs a program)',
  '.pnpmfile.cjs': 'a pnpm hook file (code pnpm runs)', 'pnpmfile.js': 'a pnpm hook file (code pnpm runs)', 'bunfig.toml': 'bun settings (preload scripts)',
  'rust-toolchain': 'a rust toolchain file (a toolchain path runs a program)', 'rust-toolchain.toml': 'a rust toolchain file (a toolchain path runs a program)',
};

/** Files in `.vscode/` the editor obeys (settings can name programs, tasks run commands, launch starts programs). */
const VSCODE_FILES = new Set(['settings.json', 'tasks.json', 'launch.json']);

/** package.json scripts npm, yarn and pnpm run by themselves (installing, packing, publishing, versioning). */
const LIFECYCLE = /^(pre|post)|^(install|prepare|prepublish|prepublishOnly|prepack|postpack|publish|version|dependencies)$/;
/** Top-level package.json keys that install git hooks or commands run on commit. */
const HOOK_KEYS = ['husky', 'lint-staged', 'simple-git-hooks', 'gitHooks', 'pre-commit'];

const MAX_PACKAGE_BYTES = 4 * 1024 * 1024;

/** Why a write to this real path changes what runs later, or null. */
export function controlPathReason(real: string): string | null {
  const parts = real.split(/[\\/]+/).filter(Boolean);
  const name = parts[parts.length - 1] ?? '';
  const folders = parts.slice(0, -1);
  for (const f of folders) if (Object.prototype.hasOwnProperty.call(CONTROL_FOLDERS, f)) return CONTROL_FOLDERS[f]!;
  if (Object.prototype.hasOwnProperty.call(CONTROL_NAMES, name)) return CONTROL_NAMES[name]!;
  if (/^\.lintstagedrc\./.test(name) || /^lint-staged\.config\./.test(name)) return 'commands lint-staged runs on git commit';
  if (name.endsWith('.code-workspace')) return 'an editor workspace file (its settings and tasks run programs)';
  const parent = folders[folders.length - 1];
  if (parent === '.vscode' && VSCODE_FILES.has(name)) return `editor ${name.replace('.json', '')}: the editor runs what it names`;
  const yarnDir = folders.lastIndexOf('.yarn');
  if (yarnDir !== -1 && ['releases', 'plugins', 'sdks'].includes(folders[yarnDir + 1] ?? '')) return 'yarn code yarn loads and runs';
  return null;
}

/**
 * The `control_file` hints of a write_file or edit_file call: one per written path that decides
 * what runs later; a package.json only when its lifecycle scripts or hook settings change (read
 * from the disk now; what cannot be read or parsed counts as a change).
 */
export function controlFileHints(tool: string, args: unknown, paths: readonly PathFact[]): RiskHint[] {
  if (tool !== 'write_file' && tool !== 'edit_file') return [];
  const a = (args ?? {}) as { path?: unknown; content?: unknown; edits?: unknown };
  const written = paths.filter((p) => p.access === 'write').map((p) => p.real);
  // Without resolved paths (no facts), the argument says where: judged as written, failing closed.
  if (written.length === 0 && typeof a.path === 'string') written.push(a.path);
  const hints: RiskHint[] = [];
  for (const real of written) {
    const why = controlPathReason(real);
    if (why) {
      hints.push({ kind: 'control_file', fragment: visible(real), detail: `${why}; changes what git, your editor, your shell or npm runs` });
      continue;
    }
    if (/(^|[\\/])package\.json$/.test(real)) {
      const change = packageScriptsChange(tool, a, paths.length > 0 ? real : null);
      if (change) hints.push({ kind: 'control_file', fragment: visible(real), detail: `${change}; changes what npm runs` });
    }
  }
  return hints;
}

/** What changes in a package.json's lifecycle scripts and hook settings, in words with the new values; null when nothing does. */
export function packageScriptsChange(tool: string, a: { content?: unknown; edits?: unknown }, real: string | null): string | null {
  const before = real === null ? null : readSmall(real);
  if (before === undefined) return 'package.json could not be read to compare its scripts';
  let after: string | null;
  if (tool === 'write_file') after = typeof a.content === 'string' ? a.content : null;
  else after = applyEdits(before ?? '', a.edits);
  if (after === null) return 'the new package.json could not be worked out to compare its scripts';
  const old = parseJson(before ?? '{}');
  const next = parseJson(after);
  if (next === undefined) return 'the new package.json is not valid JSON, so its scripts cannot be compared';
  const was = old ?? {};
  const changes: string[] = [];
  const scripts = (o: Record<string, unknown>) => (o.scripts && typeof o.scripts === 'object' ? (o.scripts as Record<string, unknown>) : {});
  const s0 = scripts(was);
  const s1 = scripts(next);
  for (const k of new Set([...Object.keys(s0), ...Object.keys(s1)])) {
    if (!LIFECYCLE.test(k) || JSON.stringify(s0[k]) === JSON.stringify(s1[k])) continue;
    changes.push(k in s1 ? `scripts.${k} becomes ${JSON.stringify(s1[k])}` : `scripts.${k} is removed`);
  }
  for (const k of HOOK_KEYS) {
    if (JSON.stringify(was[k]) !== JSON.stringify(next[k])) changes.push(k in next ? `"${k}" becomes ${JSON.stringify(next[k])}` : `"${k}" is removed`);
  }
  return changes.length ? changes.join(', ') : null;
}

/** The file's text; null when it does not exist; undefined when it cannot be read (fail closed). */
function readSmall(real: string): string | null | undefined {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_PACKAGE_BYTES) return undefined;
    const buf = Buffer.alloc(info.size);
    let got = 0;
    while (got < info.size) {
      const n = readSync(fd, buf, got, info.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The edits applied as edit_file would when each search text matches once (line ends as LF); null otherwise. */
function applyEdits(before: string, edits: unknown): string | null {
  if (!Array.isArray(edits)) return null;
  let text = before.replace(/\r\n/g, '\n');
  for (const e of edits as Array<{ search?: unknown; replace?: unknown }>) {
    if (typeof e?.search !== 'string' || typeof e.replace !== 'string') return null;
    const search = e.search.replace(/\r\n/g, '\n');
    const at = text.indexOf(search);
    if (at === -1 || text.indexOf(search, at + 1) !== -1) return null;
    text = text.slice(0, at) + e.replace.replace(/\r\n/g, '\n') + text.slice(at + search.length);
  }
  return text;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
