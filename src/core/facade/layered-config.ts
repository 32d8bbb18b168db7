import type { PepeConfig } from '../config/schema.js';
import type { ConfigSnapshot, ConfigStore } from '../config/store.js';
import type { TrustStore } from '../interop/trust-store.js';
import { loadInterop, withOverlay, type Interop } from '../interop/workspace-power.js';

/**
 * config.json as it applies: the last good snapshot of the file, the files beside it (agent
 * files, other tools' MCP entries, hooks), with the workspace's (when it may load) and the
 * person's own only, and the two merged (config.json wins a name).
 */
export class LayeredConfig {
  private snapshot: ConfigSnapshot = { exists: false, raw: {}, config: {}, unknown: [], setAside: [] };
  private interopFull: Interop | null = null;
  private interopPersonal: Interop | null = null;
  private merged: { base: PepeConfig; interop: Interop | null; config: PepeConfig } | null = null;

  constructor(
    private readonly deps: {
      store: ConfigStore;
      trust: TrustStore;
      home: string;
      workspace: string;
      vscodeUserMcp: string | null;
      /** `--untrusted`: the workspace's files never load. */
      untrusted: boolean;
      /** Whether workspace-supplied files may load now. */
      filesAllowed(): boolean;
    },
  ) {}

  /** config.json with the agents and MCP servers of files that apply. */
  get config(): PepeConfig {
    const interop = this.items();
    if (this.merged?.base !== this.snapshot.config || this.merged.interop !== interop) this.merged = { base: this.snapshot.config, interop, config: withOverlay(this.snapshot.config, interop) };
    return this.merged.config;
  }

  get current(): ConfigSnapshot {
    return this.snapshot;
  }

  /** Agent files, other tools' MCP entries and hooks as they apply now. */
  items(): Interop | null {
    return this.deps.filesAllowed() ? this.interopFull : this.interopPersonal;
  }

  /** With the workspace's files, whether or not they may load now (what `pepe trust` reviews). */
  full(): Interop | null {
    return this.interopFull;
  }

  /** Re-reads config.json; throws ConfigError (and keeps the previous snapshot) when it is broken. */
  async reload(): Promise<ConfigSnapshot> {
    this.snapshot = await this.deps.store.read();
    const common = { home: this.deps.home, vscodeUserMcp: this.deps.vscodeUserMcp, config: this.snapshot.config, trust: this.deps.trust };
    this.interopPersonal = await loadInterop({ ...common, workspace: null });
    this.interopFull = this.deps.untrusted ? this.interopPersonal : await loadInterop({ ...common, workspace: this.deps.workspace });
    return this.snapshot;
  }
}
