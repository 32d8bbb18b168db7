import assert from 'node:assert/strict';
import type { TurnResult } from '../../../src/core/events.js';
import { PanelPlan } from '../../../src/extension/chat/panel-plan.js';
import { parseWebviewMessage } from '../../../src/protocol/messages.js';

const result = (over: Partial<TurnResult>): TurnResult => ({ agent: 'a', sessionId: 's', turnId: 't', content: '1. read\n2. edit', status: 'ok', tookInOutsideContent: false, messages: [], ...over });

describe('the chat panel\'s plan mode (mode switch, Start)', () => {
  it('follows the agent\'s default until the person chooses', () => {
    const plan = new PanelPlan();
    assert.equal(plan.on(true), true);
    assert.deepEqual(plan.turnOptions(), {}, 'the agent default is applied by the core');
    plan.set(false);
    assert.equal(plan.on(true), false);
    assert.deepEqual(plan.turnOptions(), { planMode: false });
  });

  it('Start takes the last plan once and leaves plan mode; a turn outside plan mode or a failed one leaves nothing to start', () => {
    const plan = new PanelPlan();
    plan.set(true);
    plan.finished(result({ planMode: true }));
    assert.equal(plan.canStart, true);
    assert.equal(plan.take(), '1. read\n2. edit');
    assert.equal(plan.on(false), false, 'acting after Start');
    assert.equal(plan.take(), null);
    plan.finished(result({}));
    assert.equal(plan.canStart, false);
    plan.finished(result({ planMode: true, status: 'error' }));
    assert.equal(plan.canStart, false);
    plan.finished(result({ planMode: true }));
    plan.forget();
    assert.equal(plan.canStart, false, 'another conversation shown');
  });

  it('the webview\'s mode messages are validated', () => {
    assert.equal(parseWebviewMessage({ type: 'set_plan_mode', plan: true }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'set_plan_mode', plan: 'yes' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'start_plan' }).ok, true);
  });
});
