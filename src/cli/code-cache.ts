import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { getHeapCodeStatistics } from 'node:v8';
import { constants as vmConstants, Script } from 'node:vm';

/**
 * V8 code cache for the CLI's own bundles: compiling cli-core.js (≈1 MB, mostly zod) is the larger
 * part of a command's start-up, and V8 can skip it with the code it produced last time. Node 22.1+
 * does this itself (`module.enableCompileCache`); on older Node, `Module.prototype._compile` is
 * wrapped for files under `bundleDir` only, the same technique as the v8-compile-cache package.
 *
 * The cache lives in the person's own cache folder (`$XDG_CACHE_HOME/pepe/v8`, `~/.cache/pepe/v8`,
 * `%LOCALAPPDATA%\pepe\v8`), one set of entries per install folder, created private, and is used only while that folder is owned by this
 * user and writable by nobody else: cached code is code. V8 rejects data made for another source,
 * V8 version or flag set; a rejected, unreadable or unwritable cache only means compiling as usual.
 * `PEPE_CODE_CACHE=off` turns it off.
 */
export function enableCodeCache(bundleDir: string, env: NodeJS.ProcessEnv = process.env, command = ''): void {
  if (env.PEPE_CODE_CACHE === 'off') return;
  const dir = cacheDir(env);
  if (!dir || !privateDir(dirname(dir)) || !privateDir(dir)) return;
  const builtIn = (Module as unknown as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (builtIn) {
    builtIn(dir);
    return;
  }
  // Without it (Node before 20.12), a cached module's import() would fail: compile as usual then.
  const importModuleDynamically = (vmConstants as typeof vmConstants | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (!importModuleDynamically) return;
  const prefix = bundleDir.endsWith(sep) ? bundleDir : bundleDir + sep;
  const proto = Module.prototype as unknown as { _compile(content: string, filename: string): unknown };
  const compile = proto._compile;
  const install = fnv1a(prefix);
  /** Every bundle compiled through the cache in this process; `missed` when it had no usable entry. */
  const loaded: { name: string; file: string; script: Script; source: string; stamp: string; missed: boolean }[] = [];
  proto._compile = function (this: NodeJS.Module, content: string, filename: string) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename);
    const st = statSync(filename, { throwIfNoEntry: false });
    if (!st) return compile.call(this, content, filename);
    // V8 checks a cache against the source's length only: a file rewritten since Node read it
    // (a rebuild) must neither use nor make one.
    if (Buffer.byteLength(content) !== st.size) return compile.call(this, content, filename);
    // One install's entries are named after its folder, so two installs (the extension's and a
    // global CLI) sharing the person's cache never evict each other's.
    const name = `${install}-${filename.slice(prefix.length).replace(/[^A-Za-z0-9.-]/g, '_')}`;
    const file = join(dir, `${name}-${st.size}-${Math.trunc(st.mtimeMs)}-${process.arch}.bin`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    const script = new Script(Module.wrap(content.replace(/^#!.*/, '')), { filename, cachedData, importModuleDynamically });
    loaded.push({ name, file, script, source: filename, stamp: `${st.size}:${st.mtimeMs}`, missed: !cachedData || script.cachedDataRejected === true });
    const fn = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return fn.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
  };
  // Written at exit, so the functions compiled while running are in the cache too. An entry holds
  // what the process that wrote it had compiled: the first command after an install or a build
  // decides what every later one finds. So a process that compiled notably more than the entries
  // it found held (another command's functions) writes them again: the entries grow toward
  // everything the commands people run use, and stop being written once they hold it. Which
  // commands were already compared is recorded beside the entries: a command compared before,
  // whose entries were all usable, compares nothing (asking V8 loads node:v8, and the streams with
  // it: a few ms of every start).
  process.once('exit', () => {
    if (!loaded.length) return;
    const coverageFile = join(dir, `${install}.coverage`);
    const record = readCoverage(coverageFile);
    if (!loaded.some((e) => e.missed) && record.commands.includes(command)) return;
    const compiled = bytecodeBytes();
    const grown = compiled !== null && compiled > record.bytes + COVERAGE_GROWTH;
    const write = loaded.filter((e) => e.missed || grown);
    let wrote = false;
    for (const { name, file, script, source, stamp } of write) {
      try {
        const now = statSync(source);
        if (`${now.size}:${now.mtimeMs}` !== stamp) continue; // rebuilt meanwhile
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, file);
        // The caches of earlier builds of this bundle, in this install, are of no more use.
        for (const old of readdirSync(dir)) if (old.startsWith(`${name}-`) && old.endsWith('.bin') && join(dir, old) !== file) rmSync(join(dir, old), { force: true });
        wrote = true;
      } catch {
        // no cache this time
      }
    }
    if (wrote) pruneGoneInstalls(dir, install, prefix);
    if (compiled === null) return;
    // Rewritten entries hold what this process held: the commands compared before still hold when
    // the entries grew (they kept their functions), not when a missing entry was written afresh.
    if (wrote) writeCoverage(coverageFile, compiled, grown ? withCommand(record.commands, command) : [command]);
    else if (!write.length && record.bytes > 0) writeCoverage(coverageFile, record.bytes, withCommand(record.commands, command));
  });
}

/**
 * Each install's entries stay until that install is gone: an install records its folder beside
 * its entries (`<install>.folder`), and a process that writes entries removes those of every
 * install whose folder no longer exists (an extension's earlier version, a removed global CLI), so
 * the cache does not grow by a few MB with each update. Entries no install claims (written before
 * installs recorded their folders) go once they are a month old. Only when entries are written:
 * a start that finds its entries asks nothing.
 */
function pruneGoneInstalls(dir: string, install: string, prefix: string): void {
  try {
    const ours = join(dir, `${install}.folder`);
    if (readFileText(ours) !== prefix) writeFileSync(ours, prefix, { mode: 0o600 });
    const names = readdirSync(dir);
    const claimed = new Set<string>();
    const gone = new Set<string>();
    for (const name of names) {
      if (!name.endsWith('.folder')) continue;
      const other = name.slice(0, -'.folder'.length);
      claimed.add(other);
      const folder = other === install ? prefix : readFileText(join(dir, name));
      if (folder !== undefined && !statSync(folder, { throwIfNoEntry: false })?.isDirectory()) gone.add(other);
    }
    const monthAgo = Date.now() - 30 * 24 * 3600 * 1000;
    for (const name of names) {
      const owner = /^([0-9a-f]{16})[-.]/.exec(name)?.[1];
      if (!owner || owner === install) continue;
      const file = join(dir, name);
      const unclaimedAndOld = !claimed.has(owner) && (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < monthAgo;
      if (gone.has(owner) || unclaimedAndOld) rmSync(file, { force: true });
    }
  } catch {
    // pruned next time
  }
}

function readFileText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The commands compared against an install's entries: a few dozen at most (beyond, a command compares each time). */
const MAX_COMMANDS = 64;

function withCommand(commands: readonly string[], command: string): string[] {
  return commands.includes(command) || commands.length >= MAX_COMMANDS ? [...commands] : [...commands, command];
}

/**
 * Bytecode the process holds that its entries did not (about 4 % of what a mock `pepe run`
 * compiles): less is noise, not another command's functions.
 */
const COVERAGE_GROWTH = 32 * 1024;

/** Bytecode in this process's heap now: what it compiled plus what it took from the cache. */
function bytecodeBytes(): number | null {
  try {
    return getHeapCodeStatistics().bytecode_and_metadata_size;
  } catch {
    return null;
  }
}

/**
 * What the process that last wrote this install's entries held (`bytes`, 0 when none is recorded
 * or it is unreadable), then a line `>COMMAND` per command compared against them since.
 */
function readCoverage(file: string): { bytes: number; commands: string[] } {
  try {
    const [first = '', ...rest] = readFileSync(file, 'utf8').split('\n');
    const n = Number(first.trim());
    if (!Number.isSafeInteger(n) || n <= 0) return { bytes: 0, commands: [] };
    return { bytes: n, commands: rest.filter((l) => l.startsWith('>')).map((l) => l.slice(1)).slice(0, MAX_COMMANDS) };
  } catch {
    return { bytes: 0, commands: [] };
  }
}

function writeCoverage(file: string, bytes: number, commands: readonly string[]): void {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${[String(bytes), ...commands.map((c) => `>${c}`)].join('\n')}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // recorded next time
  }
}

/** A short stable name for an install folder (FNV-1a, 2×32 bits): cheaper to load than node:crypto. */
function fnv1a(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

function cacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (process.platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'pepe', 'v8') : undefined;
  const base = env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : '');
  return base ? join(base, 'pepe', 'v8') : undefined;
}

/** Creates `dir` private if missing; true only when it is ours and nobody else can write to it. */
function privateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (!st.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function requireFor(mod: NodeJS.Module): NodeJS.Require {
  const M = Module as unknown as { _resolveFilename(request: string, parent: NodeJS.Module, isMain: boolean, options?: unknown): string; _cache: unknown; _extensions: unknown };
  const req = ((id: string) => mod.require(id)) as NodeJS.Require;
  req.resolve = ((request: string, options?: unknown) => M._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  Object.assign(req, { main: typeof require === 'undefined' ? undefined : require.main, cache: M._cache, extensions: M._extensions });
  return req;
}
