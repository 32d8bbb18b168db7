/**
 * Smoke: the extension in a real VS Code workbench. "Pepe: Show Log" from the command palette
 * shows the Pepe output channel with the activation line (which names the PEPE_HOME the test gave
 * code-server, so the line is from this run's extension host), and the screenshot for the docs.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { currentOutputChannel, onTestFailure, openWorkbench, runCommand, waitForOutputText, waitForWorkbench, type Workbench } from '../vscode/harness';
import { docScreenshot } from './pepe-ui';

describe('smoke: Pepe in a real VS Code workbench', function () {
  let wb: Workbench | undefined;
  let pepeHome: string;

  before(async function () {
    pepeHome = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-home-'));
    wb = await openWorkbench({ env: { PEPE_HOME: pepeHome } });
    await waitForWorkbench(wb.page);
  });

  afterEach(function () {
    return onTestFailure(this, wb);
  });

  after(async function () {
    await wb?.close();
    rmSync(pepeHome, { recursive: true, force: true });
  });

  it('"Pepe: Show Log" from the command palette shows the activation line in the Pepe output channel', async function () {
    const page = wb!.page;
    await runCommand(page, 'Pepe: Show Log');
    const text = await waitForOutputText(page, /Pepe activated in [\d.]+ ms/);
    assert.ok(text.includes(`(PEPE_HOME: ${pepeHome})`), `the activation line names another PEPE_HOME:\n${text}`);
    assert.equal(await currentOutputChannel(page), 'Pepe');
    await docScreenshot(page, 'smoke.png');
  });
});
