import type * as vscode from 'vscode';

const PREFIX = 'pepe.apiKey.';

/**
 * API keys for configured providers, kept in VS Code's SecretStorage (spec 4.2), never in settings
 * or config.json. The core reads a model's key from the variable its `api_key_env` names in the
 * env object Pepe was built with; `overlay` puts the stored keys into that object (a plain object
 * in this process, never a process environment). The core scrubs every `api_key_env` name from
 * what the sandbox and plugin threads get (spec 8).
 */
export class ApiKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async set(name: string, value: string): Promise<void> {
    await this.secrets.store(PREFIX + name, value);
  }

  async delete(name: string): Promise<void> {
    await this.secrets.delete(PREFIX + name);
  }

  async has(name: string): Promise<boolean> {
    return (await this.secrets.get(PREFIX + name)) !== undefined;
  }

  /**
   * Makes `env` = the process environment plus the stored keys for exactly the names `wanted`
   * (the current `api_key_env` names). Keys for names no model uses any more are taken out again.
   */
  async overlay(env: NodeJS.ProcessEnv, base: NodeJS.ProcessEnv, wanted: readonly string[], previous: Set<string>): Promise<void> {
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
