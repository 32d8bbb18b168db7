import assert from 'node:assert/strict';
import type { TurnEvent as CoreTurnEvent } from '../../../src/core/events.js';
import { TurnEventSchema, type TurnEvent } from '../../../src/protocol/turn-event.js';

/*
 * The protocol's TurnEvent schema (what the webview validates) and the core's TurnEvent type must
 * not drift apart. The protocol is a leaf and cannot import the core, so the check lives here:
 * the type assertions below fail `tsc` when a variant or field differs, and the run-time case
 * checks that the schema accepts every variant type the core can emit.
 */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assignable<A, B> = [A] extends [B] ? true : false;
const sameTypes: Mutual<CoreTurnEvent['type'], TurnEvent['type']> = true;
const coreFits: Assignable<CoreTurnEvent, TurnEvent> = true;

describe('protocol TurnEvent ↔ core TurnEvent', () => {
  it('the type checks hold (they fail to compile on drift)', () => {
    assert.equal(sameTypes && coreFits, true);
  });

  it('the schema accepts a core event and rejects an unknown variant', () => {
    const fromCore: CoreTurnEvent = { type: 'turn_end', path: ['a'], agent: 'a', sessionId: 's', turnId: 't', content: 'x', status: 'ok' };
    assert.equal(TurnEventSchema.safeParse(fromCore).success, true);
    assert.equal(TurnEventSchema.safeParse({ type: 'not_an_event', path: ['a'] }).success, false);
  });
});
