import { readdirSync, statSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'sucrase';
import { errorMessage } from '../errors.js';
import { PluginCallError, PluginWorker, type PluginShape } from './plugin-worker.js';

export const PLUGIN_EXTENSIONS = ['.mjs', '.js', '.cjs', '.ts'] as const;

/** One plugin file as discovered: what it claims, or why it could not be loaded. */
export interface PluginInfo {
  file: string;
  name: string | null;
  slot: string | null;
  functions: string[];
  /** Why the plugin cannot answer anything (failed to load, duplicate name); null when it loaded. */
  error: string | null;
  source: 'file' | 'extension';
}

export interface InProcessPlugin {
  name(): string;
  slot(): string;
  [fn: string]: unknown;
}

export interface PluginRegistryOptions {
  /** The environment a plugin thread sees (already scrubbed of secrets), read when a worker starts. */
  env?: () => Record<string, string>;
  loadTimeoutMs?: number;
  memoryLimitMb?: number;
  onOutput?: (plugin: string, text: string) => void;
}

interface Entry {
  stamp: string;
  worker: PluginWorker | null;
  info: Promise<PluginInfo>;
}

/**
 * The installed plugins (spec 3.4): every module in `$PEPE_HOME/plugins/`, each loaded in its own
 * worker thread and matched by shape, plus occupants registered in-process by another extension.
 */
export class PluginRegistry {
  private entries = new Map<string, Entry>();
  private inProcess = new Map<string, InProcessPlugin>();
  /** The file plugins as last listed, keyed by every file's stamp (the guard's hot path, see list()). */
  private listed: { signature: string; infos: PluginInfo[] } | null = null;

  constructor(readonly dir: string, private readonly options: PluginRegistryOptions = {}) {}

  async files(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    return names
      .filter((n) => (PLUGIN_EXTENSIONS as readonly string[]).includes(extname(n)) && !n.endsWith('.d.ts'))
      .sort()
      .map((n) => join(this.dir, n));
  }

  /** Every plugin with what it claims; loads new or changed files. Duplicate names: the first file wins. */
  async list(): Promise<PluginInfo[]> {
    // Hot path (every guarded slot call lists the plugins): when no file was added, removed or
    // changed since the last listing, the answer is the same, and two synchronous syscalls per
    // file are far cheaper than a trip through the thread pool for each.
    const fast = this.listed && this.listed.signature === this.signatureNow() ? this.listed.infos : null;
    const fileInfos = fast ?? (await this.listFiles());
    return this.withInProcess(fileInfos);
  }

  /** `file:mtime:size` of every plugin file now, in files() order; null when the folder cannot be read. */
  private signatureNow(): string | null {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return null;
    }
    const parts: string[] = [];
    for (const n of names.filter((n) => (PLUGIN_EXTENSIONS as readonly string[]).includes(extname(n)) && !n.endsWith('.d.ts')).sort()) {
      const file = join(this.dir, n);
      const s = statSync(file, { throwIfNoEntry: false });
      parts.push(s ? `${file}:${s.mtimeMs}:${s.size}` : `${file}:gone`);
    }
    return parts.join('\n');
  }

  private async listFiles(): Promise<PluginInfo[]> {
    const files = await this.files();
    for (const file of [...this.entries.keys()]) {
      if (!files.includes(file)) {
        this.entries.get(file)?.worker?.dispose();
        this.entries.delete(file);
      }
    }
    const infos = await Promise.all(files.map((f) => this.describe(f)));
    const seen = new Map<string, string>();
    const out = infos.map((info) => {
      if (!info.name || info.error) return info;
      const first = seen.get(info.name);
      if (first) return { ...info, error: `duplicate plugin name "${info.name}" (already provided by ${basename(first)})` };
      seen.set(info.name, info.file);
      return info;
    });
    // Cache only a consistent listing: every file described at the stamp it has in `entries`.
    const stamps = files.map((f) => this.entries.get(f)?.stamp);
    this.listed = stamps.every((st) => st !== undefined) ? { signature: files.map((f, i) => `${f}:${stamps[i]}`).join('\n'), infos: out } : null;
    return out;
  }

  private withInProcess(fileInfos: PluginInfo[]): PluginInfo[] {
    const out = [...fileInfos];
    const seen = new Set(fileInfos.filter((i) => i.name && !i.error).map((i) => i.name));
    for (const plugin of this.inProcess.values()) {
      const name = plugin.name();
      if (seen.has(name)) continue;
      out.push({
        file: `extension:${name}`,
        name,
        slot: plugin.slot(),
        functions: Object.keys(plugin).filter((k) => typeof plugin[k] === 'function'),
        error: null,
        source: 'extension',
      });
    }
    return out;
  }

  async find(name: string): Promise<PluginInfo | undefined> {
    return (await this.list()).find((p) => p.name === name && !p.error);
  }

  /** The worker hosting a file plugin (started on first use). */
  workerFor(file: string): PluginWorker | undefined {
    return this.entries.get(file)?.worker ?? undefined;
  }

  inProcessPlugin(name: string): InProcessPlugin | undefined {
    return this.inProcess.get(name);
  }

  /** Another VS Code extension's occupant (spec 3.4). Returns a function that unregisters it. */
  registerInProcess(plugin: InProcessPlugin): () => void {
    const name = plugin.name();
    this.inProcess.set(name, plugin);
    return () => {
      if (this.inProcess.get(name) === plugin) this.inProcess.delete(name);
    };
  }

  private async describe(file: string): Promise<PluginInfo> {
    let stamp: string;
    try {
      const s = await stat(file);
      stamp = `${s.mtimeMs}:${s.size}`;
    } catch (e) {
      return { file, name: null, slot: null, functions: [], error: `cannot read: ${errorMessage(e)}`, source: 'file' };
    }
    const existing = this.entries.get(file);
    if (existing && existing.stamp === stamp) return existing.info;
    existing?.worker?.dispose();

    const entry: Entry = { stamp, worker: null, info: Promise.resolve(null as unknown as PluginInfo) };
    this.entries.set(file, entry);
    entry.info = (async (): Promise<PluginInfo> => {
      let code: string | undefined;
      try {
        code = await transpiledSource(file);
      } catch (e) {
        return { file, name: null, slot: null, functions: [], error: `failed to load: ${errorMessage(e)}`, source: 'file' };
      }
      const worker = new PluginWorker(file, {
        code,
        version: stamp,
        env: this.options.env?.(),
        loadTimeoutMs: this.options.loadTimeoutMs,
        memoryLimitMb: this.options.memoryLimitMb,
        onOutput: (text) => this.options.onOutput?.(basename(file), text),
      });
      entry.worker = worker;
      try {
        const shape: PluginShape = await worker.load();
        return { file, name: shape.name, slot: shape.slot, functions: shape.functions, error: null, source: 'file' };
      } catch (e) {
        worker.dispose();
        const detail = e instanceof PluginCallError ? e.detail : errorMessage(e);
        return { file, name: null, slot: null, functions: [], error: detail, source: 'file' };
      }
    })();
    return entry.info;
  }

  /**
   * Loads a plugin file in this thread. Only for the harness, which must call back into the
   * turn (spec 3.3); every other slot's plugin runs in its worker.
   */
  async loadInProcess(info: PluginInfo): Promise<InProcessPlugin> {
    const code = await transpiledSource(info.file);
    let mod: Record<string, unknown>;
    if (code !== undefined) {
      const m = { exports: {} as Record<string, unknown> };
      new Function('module', 'exports', 'require', '__filename', '__dirname', code)(m, m.exports, createRequire(info.file), info.file, dirname(info.file));
      mod = m.exports;
    } else {
      mod = (await import(`${pathToFileURL(info.file).href}?v=${Date.now()}`)) as Record<string, unknown>;
    }
    const candidate = typeof mod.name === 'function' ? mod : (mod.default as Record<string, unknown> | undefined);
    if (!candidate || typeof candidate.name !== 'function' || typeof candidate.slot !== 'function') {
      throw new Error(`${basename(info.file)} does not export name() and slot()`);
    }
    return candidate as InProcessPlugin;
  }

  dispose(): void {
    for (const e of this.entries.values()) e.worker?.dispose();
    this.entries.clear();
    this.listed = null;
  }
}

/**
 * `.ts` plugins are transpiled on load (spec 3.4), and `.js` ones too so that ES module syntax
 * works without a package.json beside them; `.mjs`/`.cjs` are imported as they are.
 */
async function transpiledSource(file: string): Promise<string | undefined> {
  const ext = extname(file);
  if (ext !== '.ts' && ext !== '.js') return undefined;
  const source = await readFile(file, 'utf8');
  return transform(source, { transforms: ext === '.ts' ? ['typescript', 'imports'] : ['imports'], filePath: file }).code;
}
