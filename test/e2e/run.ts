/**
 * e2e test runner (npm run test:e2e): builds the extension, then runs test/e2e/*.e2e.ts with mocha
 * in this process. Each test file opens a real VS Code workbench (code-server + headless Chromium,
 * see test/vscode/harness.ts) and drives it the way a person does.
 *
 * Missing prerequisites (scripts/setup-vscode.sh): skipped with a message (exit 0), or exit 1 under
 * CI=true. The whole run is bounded by PEPE_E2E_TIMEOUT_MS (default 1800000: about twenty workbenches); a test by mocha's
 * timeout (default 180000, PEPE_E2E_TEST_TIMEOUT_MS). PEPE_TEST_GREP selects tests;
 * PEPE_KEEP_VSCODE_TMP=1 keeps profiles and logs. Failing tests leave a screenshot in
 * .test-tmp/e2e-failures/.
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { buildExtension } from '../vscode/build';
import { installProcessGuards, stopAll } from '../vscode/harness';
import { repoRoot, requirePrereqsOrExit } from '../vscode/prereqs';

const LABEL = 'e2e';

async function main(): Promise<number> {
  requirePrereqsOrExit(`${LABEL} tests (VS Code)`);
  installProcessGuards({ deadlineMs: Number(process.env.PEPE_E2E_TIMEOUT_MS) || 1_800_000, label: LABEL });
  const t0 = Date.now();
  buildExtension();

  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    timeout: Number(process.env.PEPE_E2E_TEST_TIMEOUT_MS) || 180_000,
    slow: 15_000,
    color: process.stdout.isTTY === true,
  });
  if (process.env.PEPE_TEST_GREP) mocha.grep(new RegExp(process.env.PEPE_TEST_GREP));
  const dir = path.join(repoRoot, 'test', 'e2e');
  const files = readdirSync(dir).filter((f) => f.endsWith('.e2e.ts')).sort();
  if (files.length === 0) {
    console.error(`${LABEL}: FAILED: no *.e2e.ts files in ${dir}`);
    return 1;
  }
  for (const f of files) mocha.addFile(path.join(dir, f));
  await mocha.loadFilesAsync();

  let testsRun = 0;
  let passed = 0;
  const failures = await new Promise<number>((resolve) => {
    const runner = mocha.run(resolve);
    runner.on('test end', () => testsRun++);
    runner.on('pass', () => passed++);
  });
  await stopAll();
  const ok = failures === 0 && testsRun > 0;
  if (testsRun === 0) console.error(`${LABEL}: no tests ran`);
  console.log(`${LABEL}: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  // The plain closing line CI logs read.
  console.log(`${LABEL}: ${passed} passed, ${failures} failed`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    console.error(`${LABEL}: FAILED: ${(err as Error).stack ?? err}`);
    await stopAll();
    process.exit(1);
  },
);
