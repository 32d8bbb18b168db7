import * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';
import { readFileSync } from 'node:fs';
import { ConfigError, errorMessage } from '../../core/errors.js';
import type { ProblemNode } from '../views/nodes.js';
import { problemPosition, type ProblemPosition } from './config-problem.js';
import { Disposable, DisposableStore } from '../disposable.js';

/**
 * Holds the window's one Pepe (spec 9.2: one core per window), built on first use so activation
 * stays light. Views and commands ask `get()`; they are told about changes on disk through
 * `onDidChange` (config.json or the plugins folder, e.g. after `pepe slot set` in a terminal).
 */
/** A built Pepe and what was started for it (the config watcher, the log listener). */
export interface BuiltPepe {
  pepe: Pepe;
  resources: vscode.Disposable[];
  /** Answers Accept/Reject on an open proposed change (the diff approvals built with the core). */
  answerEdit?: (kind: 'allow_once' | 'deny', uri: vscode.Uri | undefined) => boolean;
}

export class PepeHost extends Disposable {
  private pepe: Promise<Pepe> | undefined;
  private built: BuiltPepe | undefined;
  /** What the current core was built with (diff approvals, key watching, …): released with it. */
  private readonly resources = this._register(new DisposableStore());
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Fired after config.json or the plugins folder changed and Pepe re-read it (or failed to). */
  readonly onDidChange = this.changed.event;
  /** The last config.json problem, shown in the views instead of stale data; null when fine. */
  configProblem: string | null = null;
  /** Where in config.json that problem is, when the message says or the path is found. */
  configProblemAt: ProblemPosition | undefined;

  /** Records a config.json problem (a ConfigError names the file, so the place in it is found). */
  setConfigProblem(e: unknown): void {
    this.configProblem = errorMessage(e);
    let text: string | undefined;
    try {
      if (e instanceof ConfigError) text = readFileSync(e.file, 'utf8');
    } catch {
      // unreadable: the row opens the file at the top
    }
    this.configProblemAt = problemPosition(this.configProblem, text);
  }

  /** The row the trees show first while config.json has a problem. */
  problemNode(): ProblemNode {
    return { kind: 'problem', message: this.configProblem ?? '', ...(this.configProblemAt ? { at: this.configProblemAt } : {}) };
  }

  constructor(private readonly build: (host: PepeHost) => Promise<BuiltPepe>) {
    super();
  }

  /** The Pepe built so far, if any (never builds one). */
  get current(): Pepe | undefined {
    return this.built?.pepe;
  }

  /** Accept/Reject on an open proposed change; false when none is open (or Pepe is not built). */
  answerEdit(kind: 'allow_once' | 'deny', uri: vscode.Uri | undefined): boolean {
    return this.built?.answerEdit?.(kind, uri) ?? false;
  }

  /** True once a view or command needed Pepe (activation itself never builds it). */
  get isBuilt(): boolean {
    return this.built !== undefined;
  }

  get(): Promise<Pepe> {
    this.pepe ??= this.build(this).then(
      (b) => {
        this.built = b;
        for (const r of b.resources) this.resources.add(r);
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
      this.configProblemAt = undefined;
    } catch (e) {
      this.setConfigProblem(e);
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
    this.configProblemAt = undefined;
    this.changed.fire();
  }

  override dispose(): void {
    this.release();
    super.dispose();
  }

  private release(): void {
    this.resources.clear();
    this.built?.pepe.dispose();
    this.built = undefined;
    this.pepe = undefined;
  }
}
