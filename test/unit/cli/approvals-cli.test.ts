import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PendingApprovals } from '../../../src/core/permissions/pending.js';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

/**
 * `pepe approvals list` shows model-written text (the command, the tool name) in a terminal: no
 * control character may reach it raw, in the table or in --json.
 */
describe('pepe approvals list with hostile text', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const RAW = ['\u001b]0;owned\u0007', '\u001b[2K', '\r', '\u202e', '\u200b', '\u0085'];

  it('escapes control characters, bidi controls and zero-width characters', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const pending = new PendingApprovals(join(home.dir, 'approvals'));
    await pending.park({
      agent: 'a',
      chain: ['a'],
      tool: 'bash',
      args: { command: 'echo safe\r\u001b[2Krm -rf x \u001b]0;owned\u0007\u202egnp.exe\u200b\u0085' },
      cwd: home.dir,
      parkedBecause: 'no_person',
    });
    const table = await pepeCli(home.dir, ['approvals', 'list']);
    assert.equal(table.exitCode, 0, table.stderr);
    for (const raw of RAW) assert.ok(!table.stdout.includes(raw), `${JSON.stringify(raw)} reached the terminal raw: ${JSON.stringify(table.stdout)}`);
    assert.match(table.stdout, /echo safe\\r\\e\[2Krm -rf x \\e\]0;owned\\x07\\u\{202e\}gnp\.exe\\u\{200b\}\\x85/);

    const json = await pepeCli(home.dir, ['approvals', 'list', '--json']);
    assert.equal(json.exitCode, 0, json.stderr);
    for (const raw of RAW) assert.ok(!json.stdout.includes(raw), `${JSON.stringify(raw)} reached the terminal raw in --json`);
    const parsed = JSON.parse(json.stdout) as Array<{ args: { command: string } }>;
    assert.equal(parsed[0]!.args.command, 'echo safe\r\u001b[2Krm -rf x \u001b]0;owned\u0007\u202egnp.exe\u200b\u0085', 'the JSON still carries the exact text');
  });
});
