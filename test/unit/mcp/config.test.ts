import assert from 'node:assert/strict';
import { ConfigStore } from '../../../src/core/config/store.js';
import { McpServerConfig, McpServerName, parseMcpToolName, mcpToolName, rawCredentials, capBytes } from '../../../src/core/mcp/index.js';
import { resolveRefs } from '../../../src/core/config/mcp-servers.js';
import { classifyTool } from '../../../src/core/permissions/tool-classes.js';
import { TempHome } from '../helpers/home.js';

describe('MCP configuration', () => {
  it('a server is local (command) or remote (url), never both or neither', () => {
    assert.ok(McpServerConfig.safeParse({ command: 'npx', args: ['-y', 'x'] }).success);
    assert.ok(McpServerConfig.safeParse({ url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }).success);
    assert.ok(!McpServerConfig.safeParse({ command: 'npx', url: 'https://example.com/mcp' }).success);
    assert.ok(!McpServerConfig.safeParse({}).success);
    assert.ok(!McpServerConfig.safeParse({ url: 'https://example.com/mcp', env: { A: 'b' } }).success);
    assert.ok(!McpServerConfig.safeParse({ url: 'file:///etc/passwd' }).success);
  });

  it('server names cannot contain "__", so a tool name splits back into one server', () => {
    assert.ok(McpServerName.safeParse('github-enterprise').success);
    assert.ok(!McpServerName.safeParse('a__b').success);
    assert.ok(!McpServerName.safeParse('-x').success);
    assert.deepEqual(parseMcpToolName(mcpToolName('my_srv', 'get.issue/2')), { server: 'my_srv', tool: 'get_issue_2' });
    assert.equal(parseMcpToolName('bash'), null);
  });

  it('MCP tools are gated: asked by default, whatever their name says', () => {
    assert.deepEqual(classifyTool('mcp__fs__read_file'), { kind: 'gated', known: true });
    assert.deepEqual(classifyTool('mcp__x__list_dir'), { kind: 'gated', known: true });
  });

  it('a raw credential is found where it is written; references are not', () => {
    assert.deepEqual(rawCredentials({ url: 'https://x.dev/mcp', headers: { Authorization: 'Bearer ${X_TOKEN}' } }), []);
    assert.deepEqual(rawCredentials({ url: 'https://x.dev/mcp', headers: { Authorization: 'Bearer abc123secretvalue' } }), ['headers.Authorization']);
    assert.deepEqual(rawCredentials({ command: 'npx', args: ['-y', 'srv', '--access-token', 'plain-token-value'] }), ['args[3]']);
    assert.deepEqual(rawCredentials({ command: 'npx', args: ['-y', 'srv', '--access-token', '${SENTRY_AUTH_TOKEN}'] }), []);
    assert.deepEqual(rawCredentials({ command: 'npx', env: { GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123' } }), ['env.GITHUB_TOKEN']);
    assert.deepEqual(rawCredentials({ command: 'srv', args: ['--token=literal'] }), ['args[0]']);
    assert.deepEqual(rawCredentials({ url: 'https://user:pw@x.dev/mcp' }), ['url (user info)']);
    assert.deepEqual(rawCredentials({ url: 'https://x.dev/mcp?api_key=abc' }), ['url ?api_key=']);
  });

  it('${VAR} references resolve from the environment; a missing one names itself', () => {
    assert.equal(resolveRefs('Bearer ${T}', { T: 'v' }, 'header'), 'Bearer v');
    assert.throws(() => resolveRefs('${MISSING}', {}, 'MCP server "x" header Authorization'), /MCP server "x" header Authorization refers to \$\{MISSING\}, which is not set/);
  });

  it('a result is cut at its size cap on a character boundary, saying so', () => {
    const cut = capBytes('é'.repeat(100), 51);
    assert.match(cut, /^é{25}\n\[cut: the result was 200 bytes; only the first 50 are shown\]$/);
    assert.equal(capBytes('short', 100), 'short');
  });

  it('a broken server entry is set aside on its own; the other servers and the rest of the configuration apply', async () => {
    const home = new TempHome();
    try {
      home.writeConfig({ mcp_servers: { good: { command: 'srv' }, bad: { command: 'a', url: 'https://x.dev' } }, agents: { a: { model: 'mock', mcp: ['good'] } } });
      const snap = await new ConfigStore(home.config).read();
      assert.deepEqual(Object.keys(snap.config.mcp_servers ?? {}), ['good']);
      assert.deepEqual(snap.setAside.map((s) => s.section), ['mcp_servers.bad']);
      assert.deepEqual(snap.config.agents?.a?.mcp, ['good']);
    } finally {
      home.cleanup();
    }
  });
});

describe('what a local server may read of its own program', () => {
  it('the files named on the command line: the outermost node_modules, else the folder; never inside PEPE_HOME or a hidden home folder', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, realpathSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { programFolders } = await import('../../../src/core/mcp/connection.js');
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'pepe-mcp-prog-')));
    const pkg = join(root, 'proj', 'node_modules', '@scope', 'server', 'dist');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'index.js'), '');
    mkdirSync(join(root, 'tools'));
    writeFileSync(join(root, 'tools', 'serve.js'), '');
    const home = join(root, 'home');
    mkdirSync(join(home, '.secret'), { recursive: true });
    writeFileSync(join(home, '.secret', 's.js'), '');
    const pepeHome = join(root, 'pepe');
    mkdirSync(pepeHome);
    writeFileSync(join(pepeHome, 'p.js'), '');
    const folders = programFolders([process.execPath, join(pkg, 'index.js'), join(root, 'tools', 'serve.js'), join(home, '.secret', 's.js'), join(pepeHome, 'p.js'), 'relative.js', '--flag'], pepeHome, home);
    assert.ok(folders.includes(join(root, 'proj', 'node_modules')), folders.join(', '));
    assert.ok(folders.includes(join(root, 'tools')), folders.join(', '));
    assert.ok(!folders.some((f) => f.startsWith(pepeHome) || f.includes('.secret')), folders.join(', '));
  });
});
