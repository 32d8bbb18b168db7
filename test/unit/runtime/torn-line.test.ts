import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TempHome } from '../helpers/home.js';

/** Defects from the attack list: a torn session line, an agent name that is a path. */
describe('a torn last line and a path-like agent name', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  // failed against bfd1589: the next turn's user message was appended onto the torn line and lost on load.
  it('a session file whose last line was torn (no newline) keeps the next user message', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const first = await pepe.run({ agent: 'a', text: 'one' });
    // A crash in the middle of a write leaves half a line.
    appendFileSync(join(home.dir, 'sessions', 'a', `${first.sessionId}.jsonl`), '{"type":"message","ts":"2026-01-01T00:00:00Z","message":{"role":"assi');
    await pepe.run({ agent: 'a', text: 'two', sessionId: first.sessionId });
    const contents = pepe.sessionLoad('a', first.sessionId).messages.map((m) => m.content);
    assert.deepEqual(contents, ['one', 'You said: one', 'two', 'You said: two']);
  });

  // failed against bfd1589: the log line after a torn one was lost the same way.
  it('the log keeps the line after a torn one', async () => {
    const pepe = await home.pepe({ workspace: home.dir });
    pepe['log'].write({ kind: 'info', message: 'first' });
    appendFileSync(pepe['log'].file, '{"kind":"info","mess');
    pepe['log'].write({ kind: 'info', message: 'after the tear' });
    assert.deepEqual(pepe['log'].readAll().map((e) => (e.kind === 'info' ? e.message : e.kind)), ['first', 'after the tear']);
  });

  for (const name of ['../x', 'a/b', '..', '/tmp/abs']) {
    // failed against bfd1589: "../x" created a folder next to agents/ (and "a/b" one inside agents/a) before the name was refused.
    it(`pepe agent add "${name}" is refused and creates nothing`, async () => {
      home.writeConfig({ agents: {} });
      const pepe = await home.pepe({ workspace: home.dir });
      const before = readdirSync(home.dir).sort();
      await assert.rejects(pepe.agentAdd(name, { model: 'mock' }), /invalid agent name/);
      assert.deepEqual(readdirSync(home.dir).sort(), before, 'nothing new in the home');
      assert.ok(!existsSync(join(home.dir, 'agents')) || readdirSync(join(home.dir, 'agents')).length === 0, 'no agent folder');
      assert.ok(!existsSync(join(home.dir, 'x')), 'nothing outside agents/');
    });
  }
});
