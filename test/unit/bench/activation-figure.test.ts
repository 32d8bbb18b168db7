import assert from 'node:assert/strict';
import { activationLine, activationSamples } from '../../integration/activation-figure.js';

/**
 * The bench's activation row comes from what the integration run logged. Failed before: the
 * lifecycle check's log line changed wording and the runner's pattern no longer matched it, so
 * no integration run recorded activation and the bench kept showing an old figure.
 */
describe('the activation figure from the integration output', () => {
  it('reads back every time the lifecycle check logs, and nothing else', () => {
    const output = ['  lifecycle', `    ${activationLine(31.25)}`, 'fresh copies of dist/extension.js: load 3.0 ms + activate() 2.0 ms = 5.0 ms', activationLine(140)];
    assert.deepEqual(activationSamples(output), [31.3, 140]);
    assert.deepEqual(activationSamples(['activation of a fresh instance (load + activate()): soon']), []);
  });
});
