import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverExternalMcp } from '../../../src/core/interop/external-mcp.js';
import { parseJsonc } from '../../../src/core/interop/jsonc.js';
import type { ToolMessage } from '../../../src/core/messages.js';
import { script, ScriptedPrompter } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';
import { everythingArgv } from '../mcp/servers.js';

/** MCP servers from VS Code's mcp.json and Claude Code's .mcp.json, run for real (server-everything). */
describe('MCP servers from other tools\' files', function () {
  this.timeout(60_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const [cmd, ...args] = everythingArgv();
  const SECRET = 'input-secret-9f8e7d6c5b4a';
  const writeVscode = (doc: unknown) => {
    mkdirSync(join(home.workspace, '.vscode'), { recursive: true });
    writeFileSync(join(home.workspace, '.vscode', 'mcp.json'), typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  };

  it('reads JSON with comments and trailing commas, leaving strings alone', () => {
    assert.deepEqual(parseJsonc('{\n // c\n "a": "x, }", /* b */ "b": [1, 2,],\n}'), { a: 'x, }', b: [1, 2] });
  });

  it('maps VS Code\'s fields: ${input:…} to a variable, ${workspaceFolder}, http and sse; .mcp.json\'s mcpServers', () => {
    writeVscode({
      inputs: [{ type: 'promptString', id: 'api-key', description: 'The key', password: true }],
      servers: {
        'my.local server': { type: 'stdio', command: 'node', args: ['${workspaceFolder}/srv.js'], env: { KEY: '${input:api-key}', N: 3 }, envFile: '.env' },
        web: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${input:api-key}' } },
        old: { type: 'sse', url: 'https://example.test/sse' },
        bad: { command: 'x', env: { K: '${input:missing}' } },
      },
    });
    writeFileSync(join(home.workspace, '.mcp.json'), JSON.stringify({ mcpServers: { claude: { command: 'npx', args: ['-y', 'pkg'], env: { T: '${TOKEN}' } } } }));
    const found = discoverExternalMcp({ workspace: home.workspace, vscodeUserFile: null });
    const by = Object.fromEntries(found.map((s) => [s.original, s]));
    assert.equal(by['my.local server']!.name, 'my-local-server');
    assert.deepEqual(by['my.local server']!.server, { command: 'node', args: [`${home.workspace}/srv.js`], env: { KEY: '${PEPE_MCP_INPUT_API_KEY}', N: '3' } });
    assert.deepEqual(by['my.local server']!.inputs, [{ id: 'api-key', description: 'The key', password: true, variable: 'PEPE_MCP_INPUT_API_KEY' }]);
    assert.ok(by['my.local server']!.warnings.includes('"envFile" is ignored'));
    assert.deepEqual(by.web!.server, { url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${PEPE_MCP_INPUT_API_KEY}' }, transport: 'streamable' });
    assert.equal(by.old!.server!.transport, 'sse');
    assert.equal(by.bad!.server, null);
    assert.match(by.bad!.errors.join(), /\$\{input:missing\} names no entry of "inputs"/);
    assert.deepEqual({ origin: by.claude!.origin, server: by.claude!.server }, { origin: 'claude-project', server: { command: 'npx', args: ['-y', 'pkg'], env: { T: '${TOKEN}' } } });
  });

  it('a workspace server is listed as awaiting acceptance and never starts; accepted, it runs with its input secret, which stays out of the list, the log and the transcript', async () => {
    writeVscode({ inputs: [{ type: 'promptString', id: 'token', description: 'Token', password: true }], servers: { ev: { type: 'stdio', command: cmd, args, env: { SECRET_TOKEN: '${input:token}' } } } });
    const steps = [{ tool_calls: [{ name: 'mcp__ev__get-env', arguments: {} }] }, { text: 'done' }];
    home.writeConfig({ agents: { a: { model: script(home, 'a', steps), mcp: ['ev'], auto_approve: ['mcp__ev__get-env'] } } });
    const pepe = await home.pepe({ workspace: home.workspace, prompter: new ScriptedPrompter() });
    let rows = pepe.mcpDescribe();
    assert.deepEqual(rows.map((r) => [r.name, r.awaiting, r.source]), [['ev', 'awaiting', '.vscode/mcp.json']]);
    const before = await pepe['mcp'].toolsFor({ mcp: ['ev'] });
    assert.deepEqual(before.tools, []);
    assert.match(before.problems.join(), /MCP server "ev" from \.vscode\/mcp\.json awaits acceptance and does not start/);
    assert.equal(pepe.mcpStatus().length, 0, 'no connection exists');

    await pepe.trustAccept('ev');
    pepe.setMcpInputs({ PEPE_MCP_INPUT_TOKEN: SECRET });
    rows = pepe.mcpDescribe();
    assert.deepEqual(rows.map((r) => [r.name, r.awaiting, r.source, r.credentials]), [['ev', undefined, '.vscode/mcp.json (VS Code workspace)', [{ variable: 'PEPE_MCP_INPUT_TOKEN', set: true }]]]);
    assert.ok(!JSON.stringify(rows).includes(SECRET));
    const r = await pepe.run({ agent: 'a', text: 'env?' });
    assert.equal(r.status, 'ok', r.error);
    const result = r.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    assert.match(result.content, /SECRET_TOKEN/, 'the server got the variable');
    await pepe['mcp'].dispose();
    const onDisk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
    for (const text of [...onDisk(join(home.dir, 'sessions')), ...onDisk(join(home.dir, 'logs'))]) assert.ok(!text.includes(SECRET), 'the secret is masked on disk');
    assert.ok(!readFileSync(join(home.dir, 'trust.json'), 'utf8').includes(SECRET));
  });

  it("the user's VS Code configuration needs no acceptance; config.json wins a name and the loser is reported", async () => {
    const user = join(home.dir, 'user-mcp.json');
    writeFileSync(user, JSON.stringify({ servers: { ev: { command: cmd, args }, other: { command: cmd, args } } }));
    home.writeConfig({ mcp_servers: { other: { command: 'true' } } });
    const pepe = await home.pepe({ workspace: home.workspace, vscodeUserMcp: user });
    assert.deepEqual(pepe.mcpDescribe().map((r) => [r.name, r.source]), [['ev', `${user} (VS Code user)`], ['other', 'config.json']]);
    assert.ok(pepe.interopProblems().some((p) => /MCP server "other" in .* is not used: config\.json defines the same name/.test(p)));
    const check = await pepe.mcpCheck('ev');
    assert.equal(check.ok, true, check.error);
    await pepe['mcp'].dispose();
  });
});
