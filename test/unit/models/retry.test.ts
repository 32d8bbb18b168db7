import assert from 'node:assert/strict';
import { DEFAULT_RETRY_POLICY, isRetryableStatus, parseRetryAfter, retryDelayMs } from '../../../src/core/models/retry.js';

describe('retry policy', () => {
  it('retries 408, 429 and 5xx only', () => {
    assert.deepEqual(
      [400, 401, 403, 404, 408, 409, 422, 429, 500, 503, 529].filter(isRetryableStatus),
      [408, 429, 500, 503, 529],
    );
  });

  it('backs off exponentially from the base, capped', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 350 };
    assert.deepEqual([0, 1, 2, 3].map((a) => retryDelayMs(a, undefined, policy)), [100, 200, 350, 350]);
  });

  it('prefers the server Retry-After (even 0), capped', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1000, maxDelayMs: 30_000 };
    assert.equal(retryDelayMs(0, 0, policy), 0);
    assert.equal(retryDelayMs(0, 5000, policy), 5000);
    assert.equal(retryDelayMs(0, 3_600_000, policy), 30_000);
  });

  it('parses Retry-After seconds, HTTP dates and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter({ 'retry-after': '7' }, now), 7000);
    assert.equal(parseRetryAfter({ 'retry-after': '1.5' }, now), 1500);
    assert.equal(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, now), 10_000);
    assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now), 0);
    assert.equal(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }, now), 250);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }, now), undefined);
    assert.equal(parseRetryAfter({}, now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});
