import type * as vscode from 'vscode';

const PREFIX = 'pepe.apiKey.';

/** What `bind` returns: re-overlay on demand; disposing stops following SecretStorage. */
export interface KeyOverlay extends vscode.Disposable {
  sync(): Promise<void>;
}

/**
 * API keys for configured providers, kept in VS Code's SecretStorage (spec 4.2), never in settings
 * or config.json. The core reads a model's key from the variable its `api_key_env` names in the
 * env object Pepe was built with, at call time; a bound overlay puts the stored keys into that
 * object (a plain object in this process, never a process environment). The core scrubs every
 * `api_key_env` name from what the sandbox and plugin threads get (spec 8).
 *
 * `set` and `delete` resolve only after every bound env object holds the new value, so the very
 * next request uses it without a window reload; a change made by another window (SecretStorage's
 * onDidChange) is overlaid as well.
 */
export class ApiKeys {
  private readonly overlays = new Set<KeyOverlay>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async set(name: string, value: string): Promise<void> {
    await this.secrets.store(PREFIX + name, value);
    await this.syncAll();
  }

  async delete(name: string): Promise<void> {
    await this.secrets.delete(PREFIX + name);
    await this.syncAll();
  }

  async has(name: string): Promise<boolean> {
    return (await this.secrets.get(PREFIX + name)) !== undefined;
  }

  /**
   * Keeps `env` = `base` plus the stored keys for exactly the names `wanted()` returns (read at
   * each sync: the current `api_key_env` names). Keys for names no model uses any more are taken
   * out again.
   */
  bind(env: NodeJS.ProcessEnv, base: NodeJS.ProcessEnv, wanted: () => readonly string[]): KeyOverlay {
    const previous = new Set<string>();
    // Syncs run one after another so an older read never lands after a newer one.
    let chain: Promise<void> = Promise.resolve();
    const listener = this.secrets.onDidChange((e) => {
      if (e.key.startsWith(PREFIX)) void overlay.sync();
    });
    const overlay: KeyOverlay = {
      sync: () => {
        chain = chain.then(() => this.overlay(env, base, wanted(), previous)).catch(() => undefined);
        return chain;
      },
      dispose: () => {
        listener.dispose();
        this.overlays.delete(overlay);
      },
    };
    this.overlays.add(overlay);
    return overlay;
  }

  private async syncAll(): Promise<void> {
    await Promise.all([...this.overlays].map((o) => o.sync()));
  }

  private async overlay(env: NodeJS.ProcessEnv, base: NodeJS.ProcessEnv, wanted: readonly string[], previous: Set<string>): Promise<void> {
    const values = await Promise.all(wanted.map(async (name) => [name, await this.secrets.get(PREFIX + name)] as const));
    for (const name of previous) {
      if (base[name] === undefined) delete env[name];
      else env[name] = base[name];
    }
    previous.clear();
    for (const [name, value] of values) {
      if (value === undefined) continue;
      env[name] = value;
      previous.add(name);
    }
  }
}

/**
 * The variables model keys are read from: every `api_key_env`, plus the vendors' default names
 * for `openai` / `anthropic` models that do not name one (the core falls back to those).
 */
export function keyEnvNames(models: Record<string, { provider: string; api_key_env?: string }> | undefined): string[] {
  const names = new Set<string>();
  for (const m of Object.values(models ?? {})) {
    const name = m.api_key_env ?? (m.provider === 'openai' ? 'OPENAI_API_KEY' : m.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : undefined);
    if (name) names.add(name);
  }
  return [...names];
}
