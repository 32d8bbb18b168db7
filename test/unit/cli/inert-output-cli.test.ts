/**
 * Every CLI command that prints outside text (a diff of files a command wrote, an MCP server's
 * tool descriptions, session titles, plugin errors, doctor findings quoting files) prints it
 * inert: an escape sequence cannot hide a line, repaint the screen or write the clipboard (OSC 52),
 * a C1 control or a carriage return cannot overwrite what was shown.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '../helpers/agents.js';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

const HOSTILE = 'ok\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u001b[Hfake prompt\rover\u009b2J\u202eexe.sh\u0085end';
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A minimal MCP server (JSON-RPC over stdio) whose tool description and name carry escapes. */
const HOSTILE_SERVER = `
import { createInterface } from 'node:readline';
const rl = createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'evil', version: '1.0.0' } } });
  else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'grab', description: ${JSON.stringify(HOSTILE)}, inputSchema: { type: 'object' }, annotations: { title: ${JSON.stringify(HOSTILE)} } }] } });
  else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, result: {} });
});
`;

describe('CLI output of outside text is inert', function () {
  this.timeout(90_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const assertInert = (r: { stdout: string; stderr: string }) => {
    assert.doesNotMatch(r.stdout, RAW, JSON.stringify(r.stdout));
    assert.doesNotMatch(r.stderr, RAW, JSON.stringify(r.stderr));
  };

  // failed against bfd1589: the diff printed ESC ]52 (clipboard), ESC [2J, CR and U+009B raw.
  it('pepe checkpoints diff (and --stat) of a file a turn wrote', async () => {
    const model = script(home, 'dev', [{ tool_calls: [{ name: 'write_file', arguments: { path: `evil\r${'\u001b'}[2K.txt`, content: `${HOSTILE}\n` } }] }, { text: 'written' }]);
    writeFileSync(join(home.workspace, 'seed.txt'), 'seed\n');
    home.writeConfig({ agents: { dev: { model, auto_approve: ['write_file'] } } });
    const run = await pepeCli(home.dir, ['run', 'dev', 'write', '--json'], {}, home.workspace);
    assert.equal(run.exitCode, 0, run.stderr);
    const list = JSON.parse((await pepeCli(home.dir, ['checkpoints', 'list', '--json'], {}, home.workspace)).stdout);
    assert.equal(list.length, 1);
    const diff = await pepeCli(home.dir, ['checkpoints', 'diff', list[0].id], {}, home.workspace);
    assert.equal(diff.exitCode, 0, diff.stderr);
    assert.match(diff.stdout, /fake prompt/, 'the text is still shown');
    assertInert(diff);
    const stat = await pepeCli(home.dir, ['checkpoints', 'diff', list[0].id, '--stat'], {}, home.workspace);
    assert.equal(stat.exitCode, 0, stat.stderr);
    assertInert(stat);
  });

  // failed against bfd1589: the tool description's escapes reached the terminal raw.
  it('pepe mcp tools of a server whose descriptions carry escapes (table and --json)', async () => {
    // Not in PEPE_HOME: MCP servers do not see it.
    const server = join(home.workspace, 'evil-server.mjs');
    writeFileSync(server, HOSTILE_SERVER);
    const add = await pepeCli(home.dir, ['mcp', 'add', 'evil', '--', process.execPath, server]);
    assert.equal(add.exitCode, 0, add.stderr);
    const tools = await pepeCli(home.dir, ['mcp', 'tools', 'evil'], {}, home.workspace);
    assert.equal(tools.exitCode, 0, tools.stderr);
    assert.match(tools.stdout, /grab/);
    assertInert(tools);
    const asJson = await pepeCli(home.dir, ['mcp', 'tools', 'evil', '--json'], {}, home.workspace);
    assert.equal(asJson.exitCode, 0, asJson.stderr);
    assertInert(asJson);
    const parsed = JSON.parse(asJson.stdout);
    assert.equal(parsed.tools[0].description.slice(0, 2), 'ok', 'still valid JSON with the text in it');
  });

  // failed against bfd1589: the session title was printed raw.
  it('pepe sessions list with a hostile session title', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const r = await pepe.run({ agent: 'a', text: 'hi' });
    pepe.sessionRename('a', r.sessionId, HOSTILE);
    const list = await pepeCli(home.dir, ['sessions', 'list', 'a']);
    assert.equal(list.exitCode, 0, list.stderr);
    assertInert(list);
  });

  // failed against bfd1589: an error quoting outside text (a plugin's error) reached stderr raw.
  it('pepe plugin list with a plugin whose load error carries escapes', async () => {
    home.writePlugin('evil.mjs', `throw new Error(${JSON.stringify(HOSTILE)});`);
    const list = await pepeCli(home.dir, ['plugin', 'list']);
    assertInert(list);
  });
});
