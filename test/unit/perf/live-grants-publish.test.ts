import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveGrants, readLiveFiles } from '../../../src/core/permissions/live-grants.js';
import { newRunState } from '../../../src/core/permissions/run-state.js';
import { SessionGrants } from '../../../src/core/permissions/session-grants.js';

/**
 * Issue 27: the live grants file is written when what it lists changes, not on every turn that
 * notes the same session again (it was written, with an fsync, twice per turn).
 */
describe('live grants file: written when the listing changes, not again when it does not', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-live-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = () => join(dir, `live-${process.pid}.json`);
  const stamp = () => {
    const s = statSync(file());
    return `${s.ino}:${s.mtimeMs}`;
  };

  it('a turn noting a session that is already the newest writes nothing; a new tainted session or a grant does', async () => {
    const live = new LiveGrants(dir);
    const grants = new SessionGrants();
    live.adopt('k', 'a', 's1', grants);
    assert.throws(() => stamp(), 'a session with nothing to list was written');
    live.noteTainted('a', 's1');
    const first = stamp();
    await new Promise((r) => setTimeout(r, 15));
    const stop = live.trackRun('a', 's1', newRunState());
    stop();
    live.adopt('k', 'a', 's1', grants);
    live.noteTainted('a', 's1');
    assert.equal(stamp(), first, 'the same listing was written again');

    live.adopt('k2', 'a', 's2', new SessionGrants());
    assert.equal(stamp(), first, 'an untainted session was written');
    live.noteTainted('a', 's2');
    assert.notEqual(stamp(), first, 'a new tainted session was not written');
    assert.deepEqual(readLiveFiles(dir)[0]!.sessions.map((s) => s.sessionId), ['s1', 's2']);

    const before = stamp();
    await new Promise((r) => setTimeout(r, 15));
    grants.grantAny('a', 'bash');
    assert.equal(grants.size, 1);
    assert.notEqual(stamp(), before, 'a new grant was not written');
    const listed = JSON.parse(readFileSync(file(), 'utf8')) as { grants: { tool?: string }[] };
    assert.deepEqual(listed.grants.map((g) => g.tool), ['bash']);
    live.dispose();
  });

  it('after dispose the file is gone, and a later publish writes it again', () => {
    const live = new LiveGrants(dir);
    live.adopt('k', 'a', 's1', new SessionGrants());
    live.noteTainted('a', 's1');
    live.dispose();
    assert.throws(() => statSync(file()));
    live.noteTainted('a', 's2');
    assert.equal(readLiveFiles(dir).length, 1);
    live.dispose();
  });

  it('a file removed while the process runs (another process took it for dead) is written again at the next publish', () => {
    const live = new LiveGrants(dir);
    const grants = new SessionGrants();
    live.adopt('k', 'a', 's1', grants);
    grants.grantAny('a', 'bash');
    rmSync(file());
    live.adopt('k', 'a', 's1', grants);
    const listed = readLiveFiles(dir);
    assert.equal(listed.length, 1, 'the grant is no longer listed, so it cannot be revoked by its id');
    assert.deepEqual(listed[0]!.grants.map((g) => g.tool), ['bash']);
    live.dispose();
  });
});
