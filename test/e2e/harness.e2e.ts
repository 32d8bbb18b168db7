/**
 * Checks the e2e helpers themselves (test/vscode/harness.ts) against the VS Code build in use, on
 * built-in UI only, so a VS Code / code-server update that changes the DOM fails here, clearly,
 * instead of in every feature test: view containers, the command palette, the terminal
 * (.xterm-rows) and a modal dialog clicked by button text.
 */
import * as assert from 'node:assert/strict';
import {
  clickDialogButton,
  dialogMessage,
  onTestFailure,
  openViewContainer,
  openWorkbench,
  runCommand,
  waitForDialog,
  waitForTerminalText,
  waitForWorkbench,
  type Workbench,
} from '../vscode/harness';

describe('e2e harness: helpers work on this VS Code build', function () {
  let wb: Workbench | undefined;

  before(async function () {
    wb = await openWorkbench({ extensionDevelopmentPath: null });
    await waitForWorkbench(wb.page);
  });

  afterEach(function () {
    return onTestFailure(this, wb);
  });

  after(async function () {
    await wb?.close();
  });

  it('openViewContainer switches the side bar', async function () {
    await openViewContainer(wb!.page, 'Search');
    await openViewContainer(wb!.page, 'Explorer');
  });

  it('runCommand opens a terminal, and readTerminalText sees what the shell printed', async function () {
    const page = wb!.page;
    await runCommand(page, 'Terminal: Create New Terminal');
    await waitForTerminalText(page, /[$#]\s*$/); // the prompt
    await page.keyboard.type('echo pepe-$((6*7))\n');
    const text = await waitForTerminalText(page, /^pepe-42$/m);
    assert.ok(!/^pepe-\$\(\(6\*7\)\)$/m.test(text), 'the shell did not evaluate the command');
  });

  it('clickDialogButton answers a modal dialog by button text', async function () {
    const page = wb!.page;
    await runCommand(page, 'File: New Untitled Text File');
    await page.keyboard.type('unsaved text');
    await runCommand(page, 'View: Close Editor');
    assert.match(await waitForDialog(page), /save the changes/i);
    await clickDialogButton(page, "Don't Save");
    assert.equal(await dialogMessage(page), undefined);
  });
});
