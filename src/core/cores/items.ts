import type { HistoryPolicy, Placement } from './manifest.js';

/** Context a slot added to the prompt (input phase). */
export interface ContextItem {
  role: 'system' | 'user';
  text: string;
  slotId: string;
  placement: Placement;
  historyPolicy: HistoryPolicy;
}

/** Text a slot sent to the user (output phase; input deliveries are transient). */
export interface SentText {
  text: string;
  slotId: string;
  historyPolicy: HistoryPolicy;
  /** Shown to the user; false = only recorded per historyPolicy. */
  visible: boolean;
}
