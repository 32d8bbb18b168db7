/**
 * Restricted Mode in VS Code (issue 12): in an untrusted folder an agent's command and write never
 * run — no approval dialog, no `Pepe: <agent>` terminal, no file — and the refusal tells the person
 * to trust the folder; reading still works. The test profile runs VS Code with Workspace Trust
 * switched off, so the extension's testing API stands in for the person leaving the folder untrusted.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, type Api } from './helpers';

type Result = { status: string; messages: { role: string; content: string; name?: string }[] };

describe('Restricted Mode', function () {
  let a: Api;
  before(async () => {
    a = await api();
  });
  after(() => a.testing.simulateTrust(undefined));

  it('an untrusted folder: bash and write_file are refused before anything is asked or shown; list_dir runs', async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder is open');
    const marker = `restricted-${Date.now()}.txt`;
    const dir = mkdtempSync(path.join(tmpdir(), 'pepe-it-restricted-'));
    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        steps: [
          {
            tool_calls: [
              { name: 'bash', arguments: { command: `echo ran > ${marker}` } },
              { name: 'write_file', arguments: { path: marker, content: 'written' } },
              { name: 'list_dir', arguments: {} },
            ],
          },
          { text: 'done' },
        ],
      }),
    );
    a.testing.simulateTrust(false);
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'untrusting', model: `mock:${script}`, tools: ['bash', 'write_file', 'list_dir'] });
    const result = (await vscode.commands.executeCommand('pepe.chat.open', { agent: 'untrusting', text: 'go' })) as Result;
    assert.equal(result.status, 'ok', JSON.stringify(result));
    const tools = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    assert.equal(tools.length, 3, JSON.stringify(tools));
    assert.match(tools[0]!, /^Restricted Mode: bash was not run\..*trust the folder/s);
    assert.match(tools[1]!, /^Restricted Mode: write_file was not run\./);
    assert.doesNotMatch(tools[2]!, /Restricted Mode/);
    assert.ok(!existsSync(path.join(workspace, marker)), 'a file was written in the untrusted folder');
    assert.ok(!vscode.window.terminals.some((t) => t.name === 'Pepe: untrusting'), 'a terminal was opened for the refused command');
    assert.equal(a.testing.terminalText('untrusting'), '');
  });
});
