import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

/** `pepe trust list | accept | revoke` and `pepe agent list` over a fixture workspace, with the real CLI. */
describe('pepe trust (CLI)', function () {
  this.timeout(120_000);
  let home: TempHome;
  before(() => ensureBuilt());
  beforeEach(() => {
    home = new TempHome();
    mkdirSync(join(home.workspace, '.pepe', 'agents'), { recursive: true });
    writeFileSync(join(home.workspace, '.pepe', 'agents', 'reviewer.md'), '---\ndescription: Reviews\nmodel: mock\ntools: [read_file]\n---\nReview.\n');
    mkdirSync(join(home.workspace, '.vscode'), { recursive: true });
    writeFileSync(join(home.workspace, '.vscode', 'mcp.json'), '{ "servers": { "ev": { "command": "node", "args": ["srv.js"] } } }');
  });
  afterEach(() => home.cleanup());
  const cli = (...args: string[]) => pepeCli(home.dir, args, { PEPE_VSCODE_USER_MCP: '' }, home.workspace);

  it('lists items awaiting acceptance, accepts one by name, shows a change as awaiting again, revokes', async () => {
    let r = await cli('trust', 'list', '--json');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).items.map((i: { id: string; status: string }) => [i.id, i.status]), [['agent:reviewer', 'awaiting'], ['mcp:ev', 'awaiting']]);
    r = await cli('agent', 'list');
    assert.match(r.stdout, /reviewer .*\.pepe\/agents\/reviewer\.md\s+awaiting acceptance/);
    r = await cli('mcp', 'list');
    assert.match(r.stdout, /ev\s+awaiting acceptance/);

    r = await cli('trust', 'accept', 'reviewer');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /accepted agent reviewer \(\.pepe\/agents\/reviewer\.md\): tools: read_file; model: mock/);
    r = await cli('run', 'reviewer', 'hi');
    assert.equal(r.exitCode, 0, r.stderr);
    r = await cli('--untrusted', 'run', 'reviewer', 'hi');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /unknown agent "reviewer"/);

    writeFileSync(join(home.workspace, '.pepe', 'agents', 'reviewer.md'), '---\ndescription: Reviews\nmodel: mock\ntools: [read_file, bash]\n---\nReview.\n');
    r = await cli('trust', 'list');
    assert.match(r.stdout, /reviewer\s+agent\s+\.pepe\/agents\/reviewer\.md\s+changed: awaiting acceptance\s+tools: read_file, bash/);
    r = await cli('run', 'reviewer', 'hi');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /changed since it was accepted/);

    r = await cli('trust', 'accept', '--all');
    assert.equal(r.exitCode, 0, r.stderr);
    r = await cli('trust', 'revoke', '.vscode/mcp.json');
    assert.match(r.stdout, /revoked mcp:ev/);
    r = await cli('trust', 'accept', 'nothing-here');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /nothing in this workspace is called "nothing-here"; its items: reviewer \(\.pepe\/agents\/reviewer\.md\), ev \(\.vscode\/mcp\.json\)/);
    r = await cli('trust', 'accept');
    assert.equal(r.exitCode, 2);
  });
});
