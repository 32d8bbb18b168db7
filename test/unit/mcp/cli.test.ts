import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { everythingArgv } from './servers.js';

/** `pepe mcp add|list|tools|test|grant|remove`, `--json` everywhere, through the built CLI. */
describe('pepe mcp (CLI)', function () {
  this.timeout(90_000);
  let home: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'pepe-mcp-cli-'));
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agents: { a: { model: 'mock' } } }));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const config = () => JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'));

  it('adds a local server for an agent, lists it, lists its tools, tests it and removes it', async () => {
    const add = await pepeCli(home, ['mcp', 'add', 'ev', '--agent', 'a', '--env', 'KEY=${SERVICE_KEY}', '--json', '--', ...everythingArgv()]);
    assert.equal(add.exitCode, 0, add.stderr);
    const added = JSON.parse(add.stdout);
    assert.deepEqual(added.warnings, []);
    assert.deepEqual(added.unsetVariables, ['SERVICE_KEY']);
    assert.deepEqual(config().agents.a.mcp, ['ev']);
    assert.equal(config().mcp_servers.ev.env.KEY, '${SERVICE_KEY}');

    const list = JSON.parse((await pepeCli(home, ['mcp', 'list', '--json'])).stdout);
    assert.equal(list[0].name, 'ev');
    assert.deepEqual(list[0].credentials, [{ variable: 'SERVICE_KEY', set: false }]);
    assert.deepEqual(list[0].agents, ['a']);

    const env = { SERVICE_KEY: 'k' };
    const tools = await pepeCli(home, ['mcp', 'tools', 'ev', '--json'], env);
    assert.equal(tools.exitCode, 0, tools.stderr);
    const names = JSON.parse(tools.stdout).tools.map((t: { name: string }) => t.name);
    assert.ok(names.includes('mcp__ev__get-sum'), names.join(', '));

    const test = await pepeCli(home, ['mcp', 'test', 'ev'], env);
    assert.equal(test.exitCode, 0, test.stderr);
    assert.match(test.stdout, /^ok: ev started and listed \d+ tools/);

    const removed = JSON.parse((await pepeCli(home, ['mcp', 'remove', 'ev', '--json'])).stdout);
    assert.deepEqual(removed, { removed: 'ev', agents: ['a'] });
    assert.deepEqual(config().mcp_servers, {});
    assert.deepEqual(config().agents.a.mcp, []);
  });

  it('a package runner without --network: saved, with a note that it needs --network', async () => {
    const r = await pepeCli(home, ['mcp', 'add', 'ev', '--', 'npx', '-y', '@modelcontextprotocol/server-everything']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /note: npx downloads the server before it starts, and without --network it cannot/);
    const with_ = await pepeCli(home, ['mcp', 'add', 'ev2', '--network', '--', 'npx', '-y', '@modelcontextprotocol/server-everything']);
    assert.ok(!with_.stdout.includes('note: npx'), with_.stdout);
  });

  it('a raw token is saved with a plain warning that it must be revoked', async () => {
    const r = await pepeCli(home, ['mcp', 'add', 'gh', '--url', 'https://example.invalid/mcp', '--header', 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz012345']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /warning: MCP server "gh" holds a credential written out .*revoke it/);
    assert.equal(config().mcp_servers.gh.headers.Authorization, 'Bearer ghp_abcdefghijklmnopqrstuvwxyz012345');
    const list = await pepeCli(home, ['mcp', 'list']);
    assert.match(list.stdout, /RAW \(revoke it\)/);
  });

  it('a server that cannot start: test exits 1 and says why; doctor reports it', async () => {
    await pepeCli(home, ['mcp', 'add', 'broken', '--', '/nonexistent/server-binary']);
    const t = await pepeCli(home, ['mcp', 'test', 'broken', '--json']);
    assert.equal(t.exitCode, 1);
    const out = JSON.parse(t.stdout);
    assert.equal(out.ok, false);
    assert.match(out.error, /MCP server "broken"/);
    const d = await pepeCli(home, ['doctor', '--json']);
    const findings = JSON.parse(d.stdout).findings as { area: string; message: string }[];
    assert.ok(findings.some((f) => f.area === 'mcp' && /broken/.test(f.message)), JSON.stringify(findings));
  });

  it('bad input gets a clear error and changes nothing', async () => {
    const before = readFileSync(join(home, 'config.json'), 'utf8');
    const bad = await pepeCli(home, ['mcp', 'add', 'a__b', '--', 'x']);
    assert.equal(bad.exitCode, 2, bad.stderr);
    assert.match(bad.stderr, /single '-' or '_'/);
    const both = await pepeCli(home, ['mcp', 'add', 'x', '--url', 'https://example.invalid/mcp', '--', 'cmd']);
    assert.match(both.stderr, /either --url .* or a command/);
    const grant = await pepeCli(home, ['mcp', 'grant', 'a', 'nothing']);
    assert.match(grant.stderr, /names no configured MCP server/);
    assert.equal(readFileSync(join(home, 'config.json'), 'utf8'), before);
  });
});
