/** The slot names are configuration vocabulary (config/ validates them); re-exported for the slot code. */
export { SLOT_NAMES, isSlotName, type SlotName } from '../config/slot-names.js';
