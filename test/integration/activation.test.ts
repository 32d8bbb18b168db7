/**
 * Runs inside the VS Code extension host (see index.ts): the extension is there, activates, and
 * its first command is registered and runs.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { testLog } from './log';

const EXTENSION_ID = 'pepe.pepe';

describe('activation', () => {
  it('the extension pepe.pepe is present (loaded from the development path)', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found; have: ${vscode.extensions.all.map((e) => e.id).filter((id) => !id.startsWith('vscode.')).join(', ')}`);
    assert.equal(ext.packageJSON.publisher, 'pepe');
    assert.equal(ext.packageJSON.name, 'pepe');
    if (process.env.PEPE_TEST_EXTENSION_PATH) assert.equal(ext.extensionPath, process.env.PEPE_TEST_EXTENSION_PATH);
  });

  it('activates and returns its API', async () => {
    const ext = vscode.extensions.getExtension<{ version: string }>(EXTENSION_ID);
    assert.ok(ext);
    const wasActive = ext.isActive;
    const started = performance.now();
    const api = await ext.activate();
    const ms = performance.now() - started;
    assert.equal(ext.isActive, true);
    assert.equal(api.version, ext.packageJSON.version);
    testLog(`activation of ${EXTENSION_ID}: ${ms.toFixed(1)} ms${wasActive ? ' (already active via onStartupFinished: time to resolve only)' : ' (load + activate)'}`);
  });

  it('the extension host has the environment the test driver gave code-server (PEPE_HOME)', () => {
    const home = process.env.PEPE_HOME;
    assert.ok(home, 'PEPE_HOME is not set in the extension host');
    assert.ok(existsSync(home), `PEPE_HOME ${home} does not exist`);
  });

  it('registers pepe.log.show, and it runs', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('pepe.log.show'), 'pepe.log.show is not registered');
    await vscode.commands.executeCommand('pepe.log.show');
  });
});
