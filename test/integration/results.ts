/**
 * The results file the integration suite writes from inside the extension host (index.ts) and the
 * drivers read (run.ts, electron.ts). Plain data, no `vscode` import.
 */
export interface TestResult {
  /** Suite titles then the test title. */
  titlePath: string[];
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: { message: string; stack?: string; actual?: string; expected?: string };
}

export interface IntegrationResults {
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  /** VS Code version of the extension host that ran the suites. */
  vscodeVersion: string;
  tests: TestResult[];
  /** Hook failures and errors outside tests (a failing `before` or a suite that did not load). */
  errors: string[];
  /** What the suites printed with testLog() (log.ts) while they ran. */
  output: string[];
}

/** Prints results the way mocha's spec reporter would; returns true when nothing failed. */
export function printResults(r: IntegrationResults, log: (line: string) => void = console.log): boolean {
  if (r.output.length) {
    log('  output from the suites:');
    for (const line of r.output) log(`    | ${line}`);
    log('');
  }
  let lastPath: string[] = [];
  const failures: TestResult[] = [];
  for (const t of r.tests) {
    const suites = t.titlePath.slice(0, -1);
    suites.forEach((title, i) => {
      if (lastPath[i] !== title) log(`${'  '.repeat(i + 1)}${title}`);
    });
    lastPath = suites;
    const indent = '  '.repeat(suites.length + 1);
    const name = t.titlePath[t.titlePath.length - 1];
    if (t.state === 'passed') log(`${indent}✔ ${name} (${t.durationMs ?? 0} ms)`);
    else if (t.state === 'pending') log(`${indent}- ${name}`);
    else {
      failures.push(t);
      log(`${indent}${failures.length}) ${name}`);
    }
  }
  log('');
  log(`  ${r.passed} passing (${(r.durationMs / 1000).toFixed(1)} s) in VS Code ${r.vscodeVersion}`);
  if (r.pending) log(`  ${r.pending} pending`);
  if (r.failed) log(`  ${r.failed} failing`);
  failures.forEach((t, i) => {
    log('');
    log(`  ${i + 1}) ${t.titlePath.join(' ')}:`);
    log(indentBlock(t.error?.stack || t.error?.message || 'unknown error', '     '));
    if (t.error?.expected !== undefined || t.error?.actual !== undefined) {
      log(`     expected: ${t.error?.expected}`);
      log(`     actual:   ${t.error?.actual}`);
    }
  });
  for (const e of r.errors) {
    log('');
    log(indentBlock(`error: ${e}`, '  '));
  }
  return r.failed === 0 && r.errors.length === 0 && r.tests.length > 0;
}

function indentBlock(text: string, prefix: string): string {
  return text.split('\n').map((l) => prefix + l).join('\n');
}
