/**
 * The model setup form from Add Model (issue 26), in the extension host: running the command
 * without arguments opens one form tab; running it again brings that same tab forward.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from './helpers';

function formTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('pepe.modelForm'));
}

async function until<T>(probe: () => T | undefined, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('model setup form', function () {
  before(async () => {
    await api();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Add Model without arguments opens one form; a second Add Model reveals it instead of a second tab', async () => {
    void vscode.commands.executeCommand('pepe.model.add');
    const tabs = await until(() => (formTabs().length ? formTabs() : undefined), 'the form tab');
    assert.equal(tabs.length, 1);
    assert.equal(tabs[0]!.label, 'Pepe: Set Up a Model');
    void vscode.commands.executeCommand('pepe.model.add');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(formTabs().length, 1);
  });
});
