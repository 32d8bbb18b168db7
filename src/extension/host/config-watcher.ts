import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import { extname } from 'node:path';
import type * as vscode from 'vscode';

const PLUGIN_EXTENSIONS = new Set(['.mjs', '.js', '.cjs', '.ts']);

/**
 * Watches `$PEPE_HOME/config.json` and `$PEPE_HOME/plugins/` (spec 2: changes on disk are picked
 * up live). Node's watcher, not VS Code's, because PEPE_HOME is usually outside the workspace.
 * The folder is watched, not the file: config writes are atomic renames, which replace the inode.
 */
export class ConfigWatcher implements vscode.Disposable {
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(home: string, pluginsDir: string, private readonly onChange: () => void, private readonly debounceMs = 150) {
    mkdirSync(pluginsDir, { recursive: true });
    this.watchers.push(
      watch(home, (_event, file) => {
        if (file === 'config.json') this.schedule();
      }),
      watch(pluginsDir, (_event, file) => {
        if (!file || PLUGIN_EXTENSIONS.has(extname(file))) this.schedule();
      }),
    );
    for (const w of this.watchers) w.on('error', () => undefined); // a removed folder must not crash the host
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.onChange(), this.debounceMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }
}
