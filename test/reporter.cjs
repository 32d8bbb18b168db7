// The spec reporter plus one plain closing line ("N passed, N failed") that CI logs can read.
'use strict';
const Spec = require('mocha/lib/reporters/spec');

class PepeReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes, failures, pending } = this.stats;
      console.log(`${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
    });
  }
}

module.exports = PepeReporter;
