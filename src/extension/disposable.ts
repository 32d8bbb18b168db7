import type * as vscode from 'vscode';

/**
 * Owns what is registered with it and disposes it once, newest first. A dispose that throws does
 * not keep the rest alive (the first error is rethrown after all ran); anything added after the
 * store was disposed is disposed at once, so a late registration never leaks.
 */
export class DisposableStore implements vscode.Disposable {
  private items: vscode.Disposable[] = [];
  private disposed = false;

  add<T extends vscode.Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  /** Disposes what it holds and stays usable (what a rebuilt core registers next). */
  clear(): void {
    const items = this.items.reverse();
    this.items = [];
    let first: unknown;
    for (const item of items) {
      try {
        item.dispose();
      } catch (e) {
        first ??= e;
      }
    }
    if (first !== undefined) throw first;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

/** A host object whose listeners, emitters and registrations end with it: `this._register(…)` each. */
export abstract class Disposable implements vscode.Disposable {
  private readonly store = new DisposableStore();

  protected _register<T extends vscode.Disposable>(item: T): T {
    return this.store.add(item);
  }

  dispose(): void {
    this.store.dispose();
  }
}
