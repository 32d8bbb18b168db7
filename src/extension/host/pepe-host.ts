import * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';
import { errorMessage } from '../../core/errors.js';

/**
 * Holds the window's one Pepe (spec 9.2: one core per window), built on first use so activation
 * stays light. Views and commands ask `get()`; they are told about changes on disk through
 * `onDidChange` (config.json or the plugins folder, e.g. after `pepe slot set` in a terminal).
 */
/** A built Pepe and what was started for it (the config watcher, the log listener). */
export interface BuiltPepe {
  pepe: Pepe;
  resources: vscode.Disposable[];
}

export class PepeHost implements vscode.Disposable {
  private pepe: Promise<Pepe> | undefined;
  private built: BuiltPepe | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fired after config.json or the plugins folder changed and Pepe re-read it (or failed to). */
  readonly onDidChange = this.changed.event;
  /** The last config.json problem, shown in the views instead of stale data; null when fine. */
  configProblem: string | null = null;

  constructor(private readonly build: (host: PepeHost) => Promise<BuiltPepe>) {}

  /** The Pepe built so far, if any (never builds one). */
  get current(): Pepe | undefined {
    return this.built?.pepe;
  }

  /** True once a view or command needed Pepe (activation itself never builds it). */
  get isBuilt(): boolean {
    return this.built !== undefined;
  }

  get(): Promise<Pepe> {
    this.pepe ??= this.build(this).then(
      (b) => {
        this.built = b;
        return b.pepe;
      },
      (e: unknown) => {
        this.pepe = undefined; // let the next call try again (e.g. after fixing pepe.home)
        throw e;
      },
    );
    return this.pepe;
  }

  /** Re-reads config.json; a broken file is reported, never overwritten (spec 2). */
  async reload(): Promise<void> {
    const pepe = this.built?.pepe;
    if (!pepe) return;
    try {
      await pepe.reload();
      this.configProblem = null;
    } catch (e) {
      this.configProblem = errorMessage(e);
    }
    this.changed.fire();
  }

  /** Tells the views to re-render without re-reading (e.g. after an edit made through Pepe). */
  refresh(): void {
    this.changed.fire();
  }

  /** Forgets the current Pepe (the pepe.home setting changed); the next `get()` builds a new one. */
  reset(): void {
    this.release();
    this.pepe = undefined;
    this.configProblem = null;
    this.changed.fire();
  }

  dispose(): void {
    this.release();
    this.changed.dispose();
  }

  private release(): void {
    for (const r of this.built?.resources.reverse() ?? []) r.dispose();
    this.built?.pepe.dispose();
    this.built = undefined;
    this.pepe = undefined;
  }
}
