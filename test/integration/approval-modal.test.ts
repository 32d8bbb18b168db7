/**
 * The approval modal in VS Code (issue 13): a model-controlled command holding ESC, CR, BEL, an
 * OSC sequence and bidi controls reaches the person's dialog visible and inert. A real turn on a
 * scripted model calls `bash` with such a command; the barrier asks through the extension's modal
 * prompter; the test stands in for the person at `window.showWarningMessage` (the dialog's text is
 * not readable from the page): it records exactly what the modal was handed and closes it, which
 * is Deny.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api } from './helpers';

type Result = { status: string; messages: { role: string; content: string }[] };
type Shown = { message: string; detail: string; buttons: string[] };

/** Every character a terminal or a text renderer would act on instead of showing. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

describe('the approval modal shows control characters inert', function () {
  const window = vscode.window as { showWarningMessage: (...args: unknown[]) => Thenable<unknown> };
  let original: typeof window.showWarningMessage;
  const shown: Shown[] = [];

  before(async () => {
    await api();
    original = window.showWarningMessage;
    // The person: reads what the dialog was handed, then closes it (Deny).
    const stand = async (...args: unknown[]) => {
      const [message, options, ...items] = args as [string, { modal?: boolean; detail?: string } | undefined, ...Array<{ title: string } | string>];
      if (options?.modal && / wants to /.test(message)) {
        shown.push({ message, detail: options.detail ?? '', buttons: items.map((i) => (typeof i === 'string' ? i : i.title)) });
        return undefined;
      }
      return original.apply(vscode.window, args as Parameters<typeof original>);
    };
    window.showWarningMessage = stand;
    assert.equal(window.showWarningMessage, stand, 'window.showWarningMessage cannot be observed in this VS Code');
  });
  after(() => {
    window.showWarningMessage = original;
  });

  it('a bash call with ESC, CR, BEL, OSC and bidi characters is asked with all of them escaped; closing the dialog denies it', async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder is open');
    const marker = `modal-${Date.now()}.txt`;
    // What it would look like raw: the CR and the erase-line sequence hide the first half, the
    // OSC sets a window title, the right-to-left override reverses the file name.
    const command = `echo pwned > ${marker}\r\u001b[2Kls -la \u001b]0;harmless\u0007 \u202etxt.exe\u202c \u2066x\u2069`;
    const dir = mkdtempSync(path.join(tmpdir(), 'pepe-it-modal-'));
    const script = path.join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [{ name: 'bash', arguments: { command } }] }, { text: 'done' }] }));
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'escaper', model: `mock:${script}`, tools: ['bash'] });

    const result = (await vscode.commands.executeCommand('pepe.chat.open', { agent: 'escaper', text: 'go' })) as Result;
    assert.equal(result.status, 'ok', JSON.stringify(result));
    assert.equal(shown.length, 1, `the modal was shown ${shown.length} times`);
    const { message, detail, buttons } = shown[0]!;

    for (const [name, text] of Object.entries({ message, detail, ...Object.fromEntries(buttons.map((b, i) => [`button ${i}`, b])) })) {
      const raw = RAW_CONTROL.exec(text);
      assert.equal(raw, null, `${name} holds a raw U+${raw?.[0].codePointAt(0)?.toString(16).padStart(4, '0')}: ${JSON.stringify(text)}`);
    }
    // Made visible, not dropped: the person sees that something is there, and the risk says so.
    assert.match(detail, /\\x1b|\\e|\\033|\\u001b/i, detail);
    assert.match(detail, /\\r/, detail);
    assert.match(detail, /\\u\{?202e/i, detail);
    assert.match(detail, /contains invisible or control characters/, detail);
    // Three buttons at most, the first (what Enter picks) never wider than once (issue 26).
    assert.deepEqual(buttons, ['Allow once', 'Allow…', 'Deny…']);
    assert.equal(message, 'escaper wants to run a command in ' + path.basename(workspace));
    assert.match(detail, /echo pwned/, 'the hidden first half of the command is shown');

    const tool = result.messages.find((m) => m.role === 'tool');
    assert.match(tool?.content ?? '', /denied/i, JSON.stringify(result.messages));
    assert.ok(!existsSync(path.join(workspace, marker)), 'the denied command ran');
  });
});
