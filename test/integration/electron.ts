/**
 * The same integration suite on desktop VS Code via @vscode/test-electron (npm run test:electron),
 * for machines that can download VS Code from Microsoft's update server. It cannot run on the CI
 * machines here (no route to update.code.visualstudio.com): they use run.ts (code-server) instead.
 *
 * Environment: VSCODE_VERSION (default "stable"), VSCODE_EXECUTABLE (use an installed VS Code, no
 * download), PEPE_TEST_GREP, PEPE_TEST_SKIP_BUILD=1. On Linux without a display run it under
 * `xvfb-run -a`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildExtension, buildIntegrationBundle } from '../vscode/build';
import { repoRoot } from '../vscode/prereqs';
import { printResults, type IntegrationResults } from './results';

async function main(): Promise<number> {
  buildExtension();
  const bundleDir = path.join(repoRoot, '.test-tmp', `integration-electron-${process.pid}`);
  const extensionTestsPath = await buildIntegrationBundle(bundleDir);
  const runDir = mkdtempSync(path.join(tmpdir(), 'pepe-electron-'));
  const pepeHome = path.join(runDir, 'pepe-home');
  const workspace = path.join(runDir, 'workspace');
  mkdirSync(pepeHome, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const resultsFile = path.join(runDir, 'results.json');
  try {
    let exitCode: number;
    try {
      exitCode = await runTests({
        version: process.env.VSCODE_VERSION || 'stable',
        ...(process.env.VSCODE_EXECUTABLE ? { vscodeExecutablePath: process.env.VSCODE_EXECUTABLE } : {}),
        extensionDevelopmentPath: repoRoot,
        extensionTestsPath,
        extensionTestsEnv: {
          PEPE_TEST_RESULTS: resultsFile,
          PEPE_HOME: pepeHome,
          PEPE_TEST_EXTENSION_PATH: repoRoot,
          ...(process.env.PEPE_TEST_GREP ? { PEPE_TEST_GREP: process.env.PEPE_TEST_GREP } : {}),
        },
        launchArgs: [
          workspace,
          '--disable-extensions',
          '--disable-workspace-trust',
          '--skip-welcome',
          '--skip-release-notes',
          '--disable-gpu',
          `--user-data-dir=${path.join(runDir, 'user-data')}`,
        ],
      });
    } catch (err) {
      // runTests rejects when VS Code exits non-zero (failing tests) or cannot be downloaded/started.
      console.error(`electron: ${(err as Error).message}`);
      exitCode = 1;
    }
    if (!existsSync(resultsFile)) {
      console.error('electron: FAILED: no results were written (VS Code did not start or run the suites)');
      return 1;
    }
    const ok = printResults(JSON.parse(readFileSync(resultsFile, 'utf8')) as IntegrationResults);
    return ok && exitCode === 0 ? 0 : 1;
  } finally {
    rmSync(bundleDir, { recursive: true, force: true });
    rmSync(runDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`electron: FAILED: ${(err as Error).stack ?? err}`);
    process.exit(1);
  },
);
