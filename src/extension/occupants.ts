import * as vscode from 'vscode';
import type { Pepe } from '../core/pepe.js';
import type { SlotOccupant } from './api.js';

/**
 * Occupants other extensions registered (spec 3.4). Kept here, not only in Pepe, so they survive
 * a rebuild of Pepe (pepe.home changed) and can be registered before Pepe exists.
 */
export class ExtensionOccupants implements vscode.Disposable {
  private readonly occupants = new Map<SlotOccupant, (() => void) | undefined>();

  constructor(private readonly onChange: () => void) {}

  add(occupant: SlotOccupant, current: Pepe | undefined): vscode.Disposable {
    if (typeof occupant?.name !== 'function' || typeof occupant.slot !== 'function') {
      throw new TypeError('registerSlotOccupant: the occupant needs name() and slot() functions');
    }
    this.occupants.set(occupant, current?.registerSlotOccupant(occupant));
    this.onChange();
    return new vscode.Disposable(() => {
      this.occupants.get(occupant)?.();
      this.occupants.delete(occupant);
      this.onChange();
    });
  }

  /** Registers every known occupant with a newly built Pepe. */
  attach(pepe: Pepe): void {
    for (const occupant of this.occupants.keys()) this.occupants.set(occupant, pepe.registerSlotOccupant(occupant));
  }

  dispose(): void {
    for (const unregister of this.occupants.values()) unregister?.();
    this.occupants.clear();
  }
}
