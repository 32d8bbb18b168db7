import assert from 'node:assert/strict';
import { costUsd } from '../../../src/core/models/cost.js';

describe('costUsd', () => {
  it('prices input and output per million tokens', () => {
    const usd = costUsd({ inputTokens: 2_000_000, outputTokens: 500_000 }, { input_per_mtok: 0.15, output_per_mtok: 0.6 });
    assert.ok(Math.abs(usd - 0.6) < 1e-12, String(usd));
  });

  it('is zero without a price (mock, local models) and treats a missing side as free', () => {
    assert.equal(costUsd({ inputTokens: 1000, outputTokens: 1000 }, undefined), 0);
    assert.equal(costUsd({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, { output_per_mtok: 2 }), 2);
  });
});
