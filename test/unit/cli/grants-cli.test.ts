import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

/** `pepe grants …` and `pepe agent add --preset` as a person uses them (issue 25). */
describe('pepe grants and agent presets', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('agent add --preset writes the preset, and grants list shows it in words', async () => {
    const r = await pepeCli(home.dir, ['agent', 'add', 'a', '--model', 'mock', '--preset', 'sandbox']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /permissions: Everything in the sandbox\. Every command runs without asking inside the sandbox/);
    const cfg = JSON.parse(readFileSync(home.config, 'utf8'));
    assert.deepEqual(cfg.agents.a.auto_approve, ['bash', 'run_script', 'write_file:write', 'edit_file:write']);
    const ro = await pepeCli(home.dir, ['agent', 'add', 'r', '--model', 'mock', '--preset', 'read-only']);
    assert.equal(ro.exitCode, 0, ro.stderr);
    assert.equal(JSON.parse(readFileSync(home.config, 'utf8')).agents.r.plan_mode, true);
    const bad = await pepeCli(home.dir, ['agent', 'add', 'b', '--model', 'mock', '--preset', 'yolo']);
    assert.equal(bad.exitCode, 2);
    assert.match(bad.stderr, /the presets are ask, read-only, harmless, sandbox/);

    const table = (await pepeCli(home.dir, ['grants', 'list', '--agent', 'a'])).stdout;
    assert.match(table, /ID\s+KIND\s+AGENT\s+ENTRY\s+WHERE\s+COVERS/);
    assert.match(table, /saved\s+a\s+write_file:write\s+config\.json\s+saved \("always"\): write_file calls whose only risks are/);
    assert.match(table, /bash\s+config\.json\s+saved \("always"\): every call of bash, with any arguments/);
    assert.doesNotMatch(table, /\br\b.*bash:none/);
    // The older listing still works: the saved part only.
    const old = await pepeCli(home.dir, ['approvals', 'grants', 'a']);
    assert.equal(old.exitCode, 0, old.stderr);
    assert.match(old.stdout, /write_file:write/);
  });

  it('revoke by tool, then clear; unknown IDs and missing arguments are usage errors', async () => {
    home.writeConfig({ agents: { a: { model: 'mock', auto_approve: ['bash:network', 'write_file:write'], trust_untrusted_content: true } }, mcp_servers: { s: { command: 'true', approve_read_only: true } } });
    const list = JSON.parse((await pepeCli(home.dir, ['grants', 'list', '--json'])).stdout) as Array<{ id: string; kind: string; scope: string }>;
    assert.deepEqual(list.map((e) => e.kind).sort(), ['mcp_read_only', 'saved', 'saved', 'trusts_outside_content']);
    assert.ok(list.every((e) => /^[a-z]-[0-9a-f]{8}$/.test(e.id)));
    const again = JSON.parse((await pepeCli(home.dir, ['grants', 'list', '--json'])).stdout) as Array<{ id: string }>;
    assert.deepEqual(again.map((e) => e.id), list.map((e) => e.id), 'IDs are stable');

    const byTool = await pepeCli(home.dir, ['grants', 'revoke', '--agent', 'a', 'bash']);
    assert.equal(byTool.exitCode, 0, byTool.stderr);
    assert.match(byTool.stdout, /revoked 1/);
    assert.deepEqual(JSON.parse(readFileSync(home.config, 'utf8')).agents.a.auto_approve, ['write_file:write']);

    assert.equal((await pepeCli(home.dir, ['grants', 'revoke', 'a-00000000'])).exitCode, 2);
    assert.match((await pepeCli(home.dir, ['grants', 'revoke'])).stderr, /name a grant/);

    const cleared = await pepeCli(home.dir, ['grants', 'clear']);
    assert.equal(cleared.exitCode, 0, cleared.stderr);
    assert.match(cleared.stdout, /revoked 3/);
    const cfg = JSON.parse(readFileSync(home.config, 'utf8'));
    assert.deepEqual(cfg.agents.a.auto_approve, []);
    assert.equal(cfg.agents.a.trust_untrusted_content, undefined);
    assert.equal(cfg.mcp_servers.s.approve_read_only, undefined);
    assert.match((await pepeCli(home.dir, ['grants', 'list'])).stdout, /nothing lets a call run without asking/);
  });

  it('--help names every subcommand and the ways to revoke', async () => {
    const r = await pepeCli(home.dir, ['grants', '--help']);
    assert.match(r.stdout, /list \[options\]/);
    assert.match(r.stdout, /revoke \[options\] \[id\] \[scope\]/);
    assert.match(r.stdout, /clear \[options\]/);
    const revoke = await pepeCli(home.dir, ['grants', 'revoke', '--help']);
    assert.match(revoke.stdout, /--agent <name>/);
  });
});
