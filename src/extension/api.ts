import type * as vscode from 'vscode';

/** A slot occupant contributed by another extension (spec 3.4): same shape as a plugin module. */
export interface SlotOccupant {
  name(): string;
  slot(): string;
  [fn: string]: unknown;
}

/** What `vscode.extensions.getExtension('pepe.pepe').exports` gives other extensions. */
export interface PepeExtensionApi {
  readonly version: string;
  /** How long `activate()` took, in ms (spec 9.2: activation is light). */
  readonly activationMs: number;
  /**
   * Contributes an occupant that shows up like an installed plugin; pin it with Set Slot….
   * It runs in the extension host with the async deadline of the guard only (spec 3.3).
   */
  registerSlotOccupant(occupant: SlotOccupant): vscode.Disposable;
}
