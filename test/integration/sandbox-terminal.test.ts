/**
 * The built-in sandbox in the integrated terminal (spec 9.2): the real process, shown in
 * `Pepe: <agent>` with its command line, live output and exact exit status; the agent gets the
 * same output; Ctrl+C in the terminal cancels; SecretStorage keys never reach the sandbox (spec 8).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, waitUntil, type Api } from './helpers';

type SlotTest = { answeredBy: string; result: { output: string; exitStatus: number } };

describe('sandbox in the integrated terminal', function () {
  let a: Api;
  before(async () => {
    a = await api();
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'shell', model: 'mock' });
  });

  it('shows the command, its output and its exact exit status; the caller gets the same output', async () => {
    const r = (await vscode.commands.executeCommand('pepe.slot.test', { slot: 'sandbox', agent: 'shell', command: ['sh', '-c', 'echo first; echo second >&2; exit 3'] })) as SlotTest;
    assert.equal(r.answeredBy, 'builtin');
    assert.equal(r.result.exitStatus, 3);
    assert.equal(r.result.output, 'first\nsecond\n');
    const text = a.testing.terminalText('shell');
    assert.ok(text.includes(`$ sh -c 'echo first; echo second >&2; exit 3'`), text);
    assert.ok(text.includes('first\r\nsecond\r\n'), JSON.stringify(text));
    assert.ok(text.includes('[exit status 3]'), text);
    assert.ok(vscode.window.terminals.some((t) => t.name === 'Pepe: shell'), 'no terminal named "Pepe: shell"');
  });

  it('Ctrl+C in the terminal cancels the running command', async () => {
    const running = Promise.resolve(vscode.commands.executeCommand('pepe.slot.test', { slot: 'sandbox', agent: 'shell', command: ['sleep', '30'] })) as Promise<SlotTest>;
    await waitUntil(() => a.testing.terminalText('shell').includes('$ sleep 30'), 'the terminal to show "$ sleep 30"');
    const started = Date.now();
    vscode.window.terminals.find((t) => t.name === 'Pepe: shell')!.sendText('\x03', false);
    const r = await running;
    assert.ok(Date.now() - started < 10_000, 'the command was not cancelled promptly');
    assert.equal(r.result.exitStatus, 137, `exit status ${r.result.exitStatus}`);
    assert.match(r.result.output, /cancelled/);
    assert.match(a.testing.terminalText('shell'), /\[exit status 137 \(cancelled\)\]/);
  });

  it('an agent turn calling bash runs in the terminal and its tool result carries the same output', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pepe-it-script-'));
    const script = path.join(dir, 'echo.json');
    writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo hello-from-turn' } }] }, { text: 'done' }] }));
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'runner', model: `mock:${script}` });
    const result = (await vscode.commands.executeCommand('pepe.chat.open', { agent: 'runner', text: 'run it' })) as { status: string; content: string; messages: { role: string; content: string }[] };
    assert.equal(result.status, 'ok', JSON.stringify(result));
    assert.equal(result.content, 'done');
    const tool = result.messages.find((m) => m.role === 'tool');
    assert.equal(tool?.content, 'exit status 0\nhello-from-turn\n');
    const text = a.testing.terminalText('runner');
    assert.ok(text.includes(`$ bash -c 'echo hello-from-turn'\x1b[0m\r\nhello-from-turn\r\n`), JSON.stringify(text));
    assert.ok(text.includes('[exit status 0]'), text);
  });

  it('an API key stored with pepe.apiKey.set reaches the model env but never the sandbox', async () => {
    const pepe = await a.testing.host.get();
    await pepe['store'].update((raw) => {
      raw.models = { ...(raw.models as object), keyed: { provider: 'openai-compatible', model: 'm', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'PEPE_IT_LLM' } };
    });
    await a.testing.host.reload();
    const secret = 'it-secret-value-4d1f9c';
    await vscode.commands.executeCommand('pepe.apiKey.set', { name: 'PEPE_IT_LLM', value: secret });
    await waitUntil(() => pepe.env.PEPE_IT_LLM === secret, 'the key to be overlaid on the env models read');
    assert.equal(process.env.PEPE_IT_LLM, undefined, 'the key was put into the process environment');
    const r = (await vscode.commands.executeCommand('pepe.slot.test', { slot: 'sandbox', agent: 'shell', command: ['env'] })) as SlotTest;
    assert.equal(r.result.exitStatus, 0);
    assert.match(r.result.output, /^PATH=/m, 'env printed nothing useful');
    assert.ok(!r.result.output.includes(secret), 'the secret value reached the sandbox');
    assert.ok(!/^PEPE_IT_LLM=/m.test(r.result.output), 'the api_key_env variable reached the sandbox');
    assert.ok(!a.testing.terminalText('shell').includes(secret), 'the secret was shown in the terminal');
  });
});
