import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

/**
 * Issue 26: a misspelt or guessed key in an agent's configuration (`mcp_servers` where the field
 * is `mcp`) used to be silently ignored. Every command now says so on stderr, doctor lists it as a
 * problem, and a write keeps the key as written (the file is never "cleaned").
 */
describe('an unknown key in an agent is reported by every command and by doctor, and kept', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const CONFIG = { agents: { a: { model: 'mock', mcp_servers: ['docs'] }, b: { model: 'mock' } } };

  it('pepe agent list warns once on stderr, naming the key', async () => {
    home.writeConfig(CONFIG);
    const r = await pepeCli(home.dir, ['agent', 'list']);
    assert.equal(r.exitCode, 0, r.stderr);
    const warnings = r.stderr.split('\n').filter((l) => /unknown key/.test(l));
    assert.deepEqual(warnings, ['pepe: warning: config.json: unknown key "agents.a.mcp_servers" does nothing (kept as is; check its spelling)']);
  });

  it('pepe doctor reports it as a problem', async () => {
    home.writeConfig(CONFIG);
    const r = await pepeCli(home.dir, ['doctor', '--json']);
    assert.equal(r.exitCode, 1, r.stdout);
    const { findings } = JSON.parse(r.stdout) as { findings: { level: string; area: string; message: string }[] };
    assert.ok(findings.some((f) => f.level === 'problem' && f.area === 'config' && f.message.includes('unknown key "agents.a.mcp_servers"')), JSON.stringify(findings));
  });

  it('a write through the CLI keeps the unknown key as written', async () => {
    home.writeConfig(CONFIG);
    const r = await pepeCli(home.dir, ['agent', 'route', 'a', 'b']);
    assert.equal(r.exitCode, 0, r.stderr);
    const after = JSON.parse(readFileSync(home.config, 'utf8')) as { agents: { a: { mcp_servers?: unknown; can_message?: string[] } } };
    assert.deepEqual(after.agents.a.mcp_servers, ['docs']);
    assert.deepEqual(after.agents.a.can_message, ['b']);
  });
});
