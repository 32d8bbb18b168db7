import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLiveFiles } from '../../../src/core/permissions/live-grants.js';
import { TempHome } from '../helpers/home.js';

/**
 * Issue 27: a process lists in its live grants file only the open conversations that withhold
 * approvals (they took in outside content), not every session it opens (which cost a write of the
 * file on every new session). What `grants list` shows must not change: a tainted conversation,
 * tainted in this turn or in an earlier one, is still listed, from this process and another.
 */
describe('grants list: tainted conversations are listed, untainted ones are not published', function () {
  this.timeout(30_000);
  let home: TempHome;
  let outside: string;
  beforeEach(() => {
    home = new TempHome();
    outside = mkdtempSync(join(tmpdir(), 'pepe-outside-'));
    writeFileSync(join(outside, 'notes.txt'), 'from outside the workspace\n');
  });
  afterEach(() => {
    home.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  function script(name: string, steps: unknown[]): string {
    const f = join(home.dir, `${name}.json`);
    writeFileSync(f, JSON.stringify({ steps }));
    return `mock:${f}`;
  }

  it('a turn that read outside the workspace is listed as taint; a plain turn adds nothing to the file', async () => {
    home.writeConfig({
      agents: {
        reader: { model: script('reader', [{ tool_calls: [{ name: 'read_file', arguments: { path: join(outside, 'notes.txt') } }] }, { text: 'read it' }]), tools: ['read_file'], auto_approve: ['read_file'] },
        plain: { model: script('plain', [{ text: 'hello' }]), tools: ['read_file'] },
      },
    });
    const pepe = await home.pepe({ workspace: home.workspace, prompter: null });
    const plain = await pepe.run({ agent: 'plain', text: 'hi', personPresent: false });
    assert.equal(plain.status, 'ok');
    const files = () => readLiveFiles(join(home.dir, 'grants'));
    assert.deepEqual(files().flatMap((f) => f.sessions), [], 'an untainted session was published');

    const tainted = await pepe.run({ agent: 'reader', text: 'read', personPresent: false });
    assert.equal(tainted.status, 'ok', tainted.error);
    assert.deepEqual(files().flatMap((f) => f.sessions), [{ agent: 'reader', sessionId: tainted.sessionId }]);
    const rows = (await pepe.grantList()).filter((e) => e.kind === 'taint');
    assert.deepEqual(rows.map((r) => r.sessionId), [tainted.sessionId]);

    // Another process (a new Pepe on the same home) continuing the tainted conversation lists it
    // too, from the taint its session file kept.
    pepe.dispose();
    const again = await home.pepe({ workspace: home.workspace, prompter: null });
    const next = await again.run({ agent: 'reader', text: 'again', sessionId: tainted.sessionId, personPresent: false });
    assert.equal(next.sessionId, tainted.sessionId);
    const sessions = files().flatMap((f) => f.sessions);
    assert.ok(sessions.some((s) => s.sessionId === tainted.sessionId), 'a conversation tainted earlier is not listed by the process continuing it');
    assert.ok(!sessions.some((s) => s.sessionId === plain.sessionId));
  });
});
