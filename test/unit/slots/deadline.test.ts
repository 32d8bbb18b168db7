import assert from 'node:assert/strict';
import { withDeadline } from '../../../src/core/slots/deadline.js';

describe('withDeadline', () => {
  it('passes a result through and rejects with the timeout error when late', async () => {
    assert.equal(await withDeadline(Promise.resolve(7), 50, () => new Error('late')), 7);
    assert.equal(await withDeadline(() => 8, 50, () => new Error('late')), 8);
    const started = performance.now();
    await assert.rejects(withDeadline(new Promise(() => undefined), 30, () => new Error('late')), /late/);
    assert.ok(performance.now() - started < 1000);
  });

  it('a function that throws synchronously is a rejection, not an exception of the caller', async () => {
    await assert.rejects(
      withDeadline(() => {
        throw new Error('boom');
      }, 50, () => new Error('late')),
      /boom/,
    );
  });
});
