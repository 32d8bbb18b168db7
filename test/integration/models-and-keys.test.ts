/**
 * Models and keys from the UI's commands, in the extension host, against a local
 * OpenAI-compatible server on 127.0.0.1: Add Model's test request, keys used by the very next
 * request after Set API Key… (the second one too, with no config change in between), errors that
 * name what to fix, Edit Agent, and Open Chat from an Agents-tree row of a default-chain agent.
 */
import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, pepeHome, readConfig, type Api } from './helpers';

type TestResult = { ok: boolean; text?: string; message?: string; kind?: string; keyEnv?: string };

function sseAnswer(text: string): string {
  const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return chunk({ role: 'assistant', content: '' }) + chunk({ content: text }) + chunk({}, 'stop') + 'data: [DONE]\n\n';
}

describe('models and keys from the UI commands', function () {
  let a: Api;
  let server: Server;
  let baseUrl: string;
  const seen: IncomingHttpHeaders[] = [];

  before(async () => {
    a = await api();
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push(req.headers);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sseAnswer(`answer ${seen.length}`));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('Add Model writes the model, keeps the key out of config.json and sends one test request with it', async () => {
    const r = (await vscode.commands.executeCommand('pepe.model.add', { provider: 'openai-compatible', id: 'it-local', model: 'm', baseUrl, apiKey: 'it-key-one' })) as { id: string; test: TestResult };
    assert.equal(r.test.ok, true, JSON.stringify(r.test));
    assert.equal(seen.at(-1)?.authorization, 'Bearer it-key-one');
    assert.deepEqual(readConfig().models['it-local'], { provider: 'openai-compatible', model: 'm', base_url: baseUrl, api_key_env: 'IT_LOCAL_API_KEY' });
    assert.ok(!readFileSync(path.join(pepeHome(), 'config.json'), 'utf8').includes('it-key-one'));
    assert.equal(readConfig().$schema, './config.schema.json');
    assert.ok(readFileSync(path.join(pepeHome(), 'config.schema.json'), 'utf8').includes('"models"'));
  });

  it('Set API Key…: each new key is on the very next request, without a reload or a config change', async () => {
    for (const key of ['it-key-two', 'it-key-three']) {
      await vscode.commands.executeCommand('pepe.apiKey.set', { name: 'IT_LOCAL_API_KEY', value: key });
      const before = seen.length;
      const r = (await vscode.commands.executeCommand('pepe.model.test', { id: 'it-local' })) as TestResult;
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(seen.length, before + 1);
      assert.equal(seen.at(-1)?.authorization, `Bearer ${key}`);
    }
  });

  it('a missing key: "no API key stored for X", nothing sent; an unreachable server: its base URL and what to check', async () => {
    const before = seen.length;
    const missing = (await vscode.commands.executeCommand('pepe.model.add', { provider: 'openai', id: 'it-nokey', model: 'gpt', baseUrl, apiKeyEnv: 'IT_NEVER_SET_KEY' })) as { test: TestResult };
    assert.equal(missing.test.ok, false);
    assert.equal(missing.test.keyEnv, 'IT_NEVER_SET_KEY');
    assert.match(missing.test.message ?? '', /no API key stored for IT_NEVER_SET_KEY/);
    assert.equal(seen.length, before, 'a request went out without a key');

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = (await vscode.commands.executeCommand('pepe.model.add', { provider: 'openai-compatible', id: 'it-down', model: 'm', baseUrl: deadUrl })) as { test: TestResult };
    assert.equal(down.test.ok, false);
    assert.ok(down.test.message?.includes(`cannot connect to ${deadUrl}`), down.test.message);
    assert.match(down.test.message ?? '', /check that the server is running/);
  });

  it('Edit Agent changes the model chain, tools and system prompt; null goes back to the default', async () => {
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'it-edit', model: 'mock' });
    await vscode.commands.executeCommand('pepe.agent.edit', { agent: 'it-edit', modelChain: ['it-local', 'mock'], tools: ['read_file'], systemPrompt: 'Be brief.' });
    assert.deepEqual(readConfig().agents['it-edit'], { model_chain: ['it-local', 'mock'], tools: ['read_file'], system_prompt: 'Be brief.' });
    await vscode.commands.executeCommand('pepe.agent.edit', { agent: 'it-edit', modelChain: null, tools: null, systemPrompt: null });
    assert.deepEqual(readConfig().agents['it-edit'], {});
  });

  it('Open Chat from the Agents-tree row of an agent on the default chain answers from it', async () => {
    assert.deepEqual(readConfig().default_model_chain, ['it-local']);
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'it-plain', model: 'mock' });
    await vscode.commands.executeCommand('pepe.agent.edit', { agent: 'it-plain', modelChain: null });
    const rows = (await a.testing.trees.agents.getChildren()) as { kind: string; agent?: string; model?: string | null; problem?: string }[];
    const row = rows.find((r) => r.agent === 'it-plain');
    assert.ok(row, JSON.stringify(rows));
    assert.equal(row.model, null);
    assert.equal(row.problem, undefined, `marked unusable: ${row.problem}`);
    // The row itself is the argument, as when its inline "Open Chat" is clicked.
    const opened = (await vscode.commands.executeCommand('pepe.chat.open', row)) as { agent: string } | undefined;
    assert.equal(opened?.agent, 'it-plain');
    const before = seen.length;
    const result = (await vscode.commands.executeCommand('pepe.chat.open', { agent: 'it-plain', text: 'hello' })) as { text?: string; finalText?: string } | undefined;
    assert.equal(seen.length > before, true, 'the default chain model was not called');
    assert.match(JSON.stringify(result), new RegExp(`answer ${before + 1}`));
  });

  it('an agent without a usable model is marked in the Agents tree with the reason', async () => {
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'it-broken', model: 'it-nokey' });
    const rows = (await a.testing.trees.agents.getChildren()) as { agent?: string; problem?: string }[];
    assert.match(rows.find((r) => r.agent === 'it-broken')?.problem ?? '', /no API key stored for IT_NEVER_SET_KEY/);
  });
});
