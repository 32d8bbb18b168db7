/**
 * The integration suite's entry point inside the VS Code extension host (`extensionTestsPath`).
 * Bundled by test/integration/build.ts to CommonJS next to the bundled suites (`suites/*.test.js`);
 * VS Code calls the exported `run()`, which runs the suites with mocha and writes the results as
 * JSON to the file named by PEPE_TEST_RESULTS (see results.ts). `run()` rejects when a test failed,
 * which is what @vscode/test-electron expects.
 *
 * Environment (given to code-server / VS Code by the driver, inherited by the extension host):
 *   PEPE_TEST_RESULTS  where to write the results JSON (written atomically: tmp file + rename);
 *                      `<file>.started` is written when run() begins
 *   PEPE_TEST_GREP     only run tests whose full title matches this regular expression
 *   PEPE_TEST_TIMEOUT  per-test timeout in ms (default 20000)
 */
import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { startOutputCapture } from './log';
import type { IntegrationResults, TestResult } from './results';

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function errorInfo(err: unknown): TestResult['error'] {
  if (err instanceof Error) {
    const e = err as Error & { actual?: unknown; expected?: unknown; showDiff?: boolean };
    const info: NonNullable<TestResult['error']> = { message: e.message, stack: e.stack };
    if (e.showDiff !== false && ('actual' in e || 'expected' in e)) {
      info.actual = format('%o', e.actual);
      info.expected = format('%o', e.expected);
    }
    return info;
  }
  return { message: String(err) };
}

export async function run(): Promise<void> {
  const resultsFile = process.env.PEPE_TEST_RESULTS;
  if (resultsFile) writeAtomic(`${resultsFile}.started`, JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));

  const results: IntegrationResults = {
    passed: 0,
    failed: 0,
    pending: 0,
    durationMs: 0,
    vscodeVersion: vscode.version,
    tests: [],
    errors: [],
    output: [],
  };

  // What the suites print with testLog() (log.ts) goes to the driver with the results.
  results.output = startOutputCapture();

  const started = Date.now();
  // Stack traces point into the TypeScript sources (the bundles carry inline source maps).
  process.setSourceMapsEnabled?.(true);
  try {
    const mocha = new Mocha({
      ui: 'bdd',
      color: false,
      timeout: Number(process.env.PEPE_TEST_TIMEOUT) || 20_000,
      // Collected below from the runner's events; keep mocha itself quiet.
      reporter: class {
        constructor(_runner: Mocha.Runner) {}
      } as unknown as typeof Mocha.reporters.Base,
    });
    if (process.env.PEPE_TEST_GREP) mocha.grep(new RegExp(process.env.PEPE_TEST_GREP));

    const suitesDir = path.join(__dirname, 'suites');
    const files = readdirSync(suitesDir).filter((f) => f.endsWith('.test.js')).sort();
    for (const file of files) mocha.addFile(path.join(suitesDir, file));
    if (files.length === 0) results.errors.push(`no suites (*.test.js) in ${suitesDir}`);

    await new Promise<void>((resolve) => {
      let runner: Mocha.Runner;
      try {
        runner = mocha.run(() => resolve());
      } catch (err) {
        // A suite that throws while loading.
        results.errors.push(errorInfo(err)?.stack ?? String(err));
        resolve();
        return;
      }
      runner.on('pass', (test) => {
        results.passed++;
        results.tests.push({ titlePath: test.titlePath(), state: 'passed', durationMs: test.duration ?? 0 });
        console.log(`  ✔ ${test.fullTitle()} (${test.duration ?? 0} ms)`);
      });
      runner.on('pending', (test) => {
        results.pending++;
        results.tests.push({ titlePath: test.titlePath(), state: 'pending' });
      });
      runner.on('fail', (test, err) => {
        results.failed++;
        results.tests.push({ titlePath: test.titlePath(), state: 'failed', durationMs: test.duration ?? 0, error: errorInfo(err) });
        console.log(`  ✘ ${test.fullTitle()}: ${err instanceof Error ? err.message : String(err)}`);
      });
    });
  } catch (err) {
    results.errors.push(errorInfo(err)?.stack ?? String(err));
  } finally {
    results.durationMs = Date.now() - started;
    if (resultsFile) writeAtomic(resultsFile, JSON.stringify(results, null, 2));
  }

  const problems = results.failed + results.errors.length;
  if (problems > 0) throw new Error(`${results.failed} integration test(s) failed, ${results.errors.length} error(s)`);
}
