import assert from 'node:assert/strict';
import type { PendingApproval } from '../../../src/core/permissions/index.js';
import { awaitedCalls, IN_FLIGHT_LIMIT_MS } from '../../../src/core/tasks/awaited.js';

describe('background tasks: the calls a task waits for', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const base = { agent: 'a', chain: ['a'], tool: 'bash', args: { command: 'true' }, cwd: '/w', sessionId: 's1', createdAt: '2026-01-01T11:00:00Z', expiresAt: '2026-01-01T13:00:00Z' };
  const call = (id: string, over: Record<string, unknown>): PendingApproval => ({ ...base, id, ...over }) as unknown as PendingApproval;
  const decided = { decidedAt: '2026-01-01T11:59:00Z', always: false };

  it('waits for pending calls and for approved ones another process took and has not recorded yet', () => {
    const approvals = [
      call('pend0001', { status: 'pending' }),
      call('runs0001', { status: 'approved', ...decided, deliveredAt: '2026-01-01T11:59:30Z' }),
      call('told0001', { status: 'approved', ...decided, deliveredAt: '2026-01-01T11:59:30Z' }),
      call('free0001', { status: 'approved', ...decided }),
      call('deny0001', { status: 'denied', decidedAt: '2026-01-01T11:59:00Z' }),
      call('gone0001', { status: 'expired' }),
      call('othr0001', { status: 'pending', sessionId: 's2' }),
    ];
    const state = { 'approval_ran:told0001': { part: 'ran', item: {} } };
    assert.deepEqual(awaitedCalls(approvals, 's1', () => state, now), ['pend0001', 'runs0001']);
  });

  it('a call taken to run longer ago than the limit is no longer waited for (its process ended without a word)', () => {
    const late = new Date(now.getTime() - IN_FLIGHT_LIMIT_MS - 1000).toISOString();
    assert.deepEqual(awaitedCalls([call('runs0001', { status: 'approved', ...decided, deliveredAt: late })], 's1', () => ({}), now), []);
  });

  it('a call whose taking time cannot be read is not waited for (waited on, it would never end)', () => {
    assert.deepEqual(awaitedCalls([call('runs0001', { status: 'approved', ...decided, deliveredAt: 'not a time' })], 's1', () => ({}), now), []);
  });

  it('reads the session only when an approved call was taken', () => {
    let reads = 0;
    awaitedCalls([call('pend0001', { status: 'pending' })], 's1', () => (reads++, {}), now);
    assert.equal(reads, 0);
  });
});
