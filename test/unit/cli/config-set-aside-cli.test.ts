import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

describe('a malformed config section is reported by every command, and by doctor', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const BROKEN = JSON.stringify({ slots: ['memory'], agents: { a: { model: 'mock' } } }, null, 2);

  it('pepe run works and warns once on stderr, naming the section and the fix; the file is untouched', async () => {
    home.writeConfig(BROKEN);
    const r = await pepeCli(home.dir, ['run', 'a', 'hello']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /You said: hello/);
    const warnings = r.stderr.split('\n').filter((l) => /set aside/.test(l));
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(warnings[0]!, /"slots".*expected an object; make it an object/);
    for (const args of [['agent', 'list'], ['slot', 'list'], ['approvals', 'list'], ['sessions', 'list']]) {
      const other = await pepeCli(home.dir, args);
      assert.equal(other.exitCode, 0, `${args.join(' ')}: ${other.stderr}`);
      assert.match(other.stderr, /config\.json: section "slots" is set aside/, args.join(' '));
    }
    assert.equal(readFileSync(home.config, 'utf8'), BROKEN);
  });

  it('pepe doctor reports the section as a problem with its fix', async () => {
    home.writeConfig(BROKEN);
    const r = await pepeCli(home.dir, ['doctor', '--json']);
    assert.equal(r.exitCode, 1);
    const { findings } = JSON.parse(r.stdout) as { findings: { level: string; area: string; message: string }[] };
    assert.ok(findings.some((f) => f.level === 'problem' && f.area === 'config' && /section "slots" is set aside.*make it an object/.test(f.message)), JSON.stringify(findings));
  });
});
