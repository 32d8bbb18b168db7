import { readdirSync, statSync, type BigIntStats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { errorMessage } from '../errors.js';
import { transpileUserModule } from '../user-module.js';
import { PluginCallError, type PluginShape } from './call-error.js';
import { harnessProxy, type HarnessProxy } from './harness-proxy.js';
import { PluginHostProcess } from './host-process.js';
import { confinedLauncher, osConfiner, pluginDataDir, pluginEnv, pluginPolicy, type ConfinementStatus, type PluginConfiner } from './sandboxing.js';

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
  /**
   * The environment plugin processes pick their variables from, read when a process starts; only
   * the allow-list (PLUGIN_ENV_ALLOW) and `exposeEnv` names pass.
   */
  env?: () => Record<string, string | undefined>;
  /** Extra variable names a plugin may see (`secrets.expose_env`). */
  exposeEnv?: () => readonly string[];
  /** `$PEPE_HOME` (hidden from plugins; their data folders live in it). Default: the folder above `dir`. */
  home?: string;
  /** The OS confinement for plugin processes (default: the sandbox's); where it does not work they run unconfined and confinement() says why. */
  confiner?: PluginConfiner;
  loadTimeoutMs?: number;
  memoryLimitMb?: number;
  /** Console output kept per call (default 64 KB). */
  maxOutputBytes?: number;
  onOutput?: (plugin: string, text: string) => void;
}

interface Entry {
  stamp: string;
  worker: PluginHostProcess | null;
  info: Promise<PluginInfo>;
}

/**
 * The installed plugins (spec 3.4): every module in `$PEPE_HOME/plugins/`, each loaded in its own
 * host process (one per file: a plugin that loops, exits or is killed takes only itself down, and
 * each gets its own data folder and network decision) and matched by shape, plus occupants
 * registered in-process by another extension.
 */
/**
 * What tells a plugin file's content apart (through a symlink: its target's): a rewrite of the same
 * size can put the modification time back (`touch -r`), not the change time or a new inode.
 */
function fileStamp(s: BigIntStats): string {
  return `${s.dev}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}:${s.size}`;
}

/** How long after a folder's its stamp is trusted to tell a later change apart (see pluginNames()). */
const CLOCK_SLACK_MS = 3_000;

export class PluginRegistry {
  private entries = new Map<string, Entry>();
  private inProcess = new Map<string, InProcessPlugin>();
  /** The file plugins as last listed, keyed by every file's stamp (the guard's hot path, see list()). */
  private listed: { signature: string; infos: PluginInfo[] } | null = null;
  /** The folder's plugin file names as last read, while the folder is unchanged (see pluginNames()). */
  private names: { stamp: string; names: string[] } | null = null;

  private lastConfinement: ConfinementStatus | null = null;
  readonly home: string;

  constructor(readonly dir: string, private readonly options: PluginRegistryOptions = {}) {
    this.home = options.home ?? dirname(dir);
  }

  /** Whether plugin processes run confined, and why not when they do not. */
  async confinement(): Promise<ConfinementStatus> {
    return this.confiner.status();
  }

  private get confiner(): PluginConfiner {
    return this.options.confiner ?? osConfiner;
  }

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

  /**
   * `file:fileStamp` of every plugin file now, in files() order; null when the folder cannot be read. */
  private signatureNow(): string | null {
    const names = this.pluginNames();
    if (names === null) return null;
    const parts: string[] = [];
    for (const n of names) {
      const file = join(this.dir, n);
      const s = statSync(file, { throwIfNoEntry: false, bigint: true });
      parts.push(s ? `${file}:${fileStamp(s)}` : `${file}:gone`);
    }
    return parts.join('\n');
  }

  /**
   * The plugin file names in the folder, sorted. Read again only when the folder changed (a file
   * added, removed or renamed changes its modification time): one stat instead of a listing on
   * every guarded call. A listing taken less than CLOCK_SLACK_MS after the folder's last change is
   * not trusted for later calls ("racy" stamps: a file system's clock may be coarse, and a second
   * change inside the same tick would leave the same stamp).
   */
  private pluginNames(): string[] | null {
    const st = statSync(this.dir, { throwIfNoEntry: false, bigint: true });
    if (!st) {
      this.names = null;
      return null;
    }
    const stamp = `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
    if (this.names && this.names.stamp === stamp) return this.names.names;
    let all: string[];
    try {
      all = readdirSync(this.dir);
    } catch {
      this.names = null;
      return null;
    }
    const names = all.filter((n) => (PLUGIN_EXTENSIONS as readonly string[]).includes(extname(n)) && !n.endsWith('.d.ts')).sort();
    const changedMs = Number(st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs) / 1e6;
    this.names = Date.now() - changedMs > CLOCK_SLACK_MS ? { stamp, names } : null;
    return names;
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

  /** The process hosting a file plugin (started on first use). */
  workerFor(file: string): PluginHostProcess | undefined {
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
      stamp = fileStamp(await stat(file, { bigint: true }));
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
      const dataDir = pluginDataDir(this.home, file);
      // Network only for a web_search occupant; known once the plugin said which slot it claims.
      let network = false;
      const worker = new PluginHostProcess(file, {
        code,
        version: stamp,
        dataDir,
        env: () => pluginEnv(this.options.env?.() ?? {}, this.options.exposeEnv?.() ?? []),
        launch: confinedLauncher(this.confiner, () => pluginPolicy(this.home, file, dataDir, network), (st) => (this.lastConfinement = st)),
        loadTimeoutMs: this.options.loadTimeoutMs,
        memoryLimitMb: this.options.memoryLimitMb,
        maxOutputBytes: this.options.maxOutputBytes,
        onOutput: (text) => this.options.onOutput?.(basename(file), text),
      });
      entry.worker = worker;
      try {
        const shape: PluginShape = await worker.load();
        if (shape.slot === 'web_search' && this.lastConfinement?.confined) {
          network = true;
          worker.recycle();
        }
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
   * A harness plugin as the runtime calls it (spec 3.3): its `run` goes to the plugin's process,
   * its `opts.onEvent` events come back as messages, the turn's signal asks it to stop, and the
   * deadline ends the process (a synchronous loop included).
   */
  harnessPlugin(info: PluginInfo, deadlineMs: number): HarnessProxy {
    const worker = this.workerFor(info.file);
    if (!worker || !info.name) throw new PluginCallError('error', `plugin "${info.name ?? basename(info.file)}" is not loaded`);
    return harnessProxy(worker, info.name, deadlineMs);
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
  return transpileUserModule(file, await readFile(file, 'utf8'));
}
