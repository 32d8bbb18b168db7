import { record } from '../faults/report.js';

/**
 * Records every test of the enclosing describe into the reliability report (docs/reliability.md)
 * when it ends: its title, the designed outcome, and what happened (the assertion's message when
 * it failed). Call inside a `describe`.
 */
export function recordAttacks(area: string, expected: string): void {
  afterEach(function () {
    const t = this.currentTest;
    if (!t || t.state === undefined || t.state === 'pending') return;
    const path = t.titlePath().slice(1).join(' › ');
    const passed = t.state === 'passed';
    record({ area, case: path, expected, observed: passed ? 'as designed' : `FAILED: ${t.err?.message ?? ''}`.slice(0, 300), passed, ms: t.duration });
  });
}
