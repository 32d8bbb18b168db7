/** The seven exclusive slots (spec 3.1). */
export const SLOT_NAMES = [
  'memory',
  'web_search',
  'sandbox',
  'model_select',
  'heartbeat_interval',
  'compaction',
  'harness',
] as const;

export type SlotName = (typeof SLOT_NAMES)[number];

export function isSlotName(value: string): value is SlotName {
  return (SLOT_NAMES as readonly string[]).includes(value);
}
