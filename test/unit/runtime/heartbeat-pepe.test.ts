import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHeartbeatOk } from '../../../src/core/runtime/heartbeat.js';
import { script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

describe('heartbeat: the sentinel and HEARTBEAT.md', function () {
  this.timeout(20_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('the silence sentinel tolerates case, whitespace, a trailing period and wrapping punctuation', () => {
    for (const quiet of ['HEARTBEAT_OK', 'HEARTBEAT_OK.', '*HEARTBEAT_OK*', '"heartbeat_ok"', '  Heartbeat_Ok \n', '**HEARTBEAT_OK**', '`HEARTBEAT_OK`', '(HEARTBEAT_OK).', "'heartbeat_ok'!"]) {
      assert.equal(isHeartbeatOk(quiet), true, JSON.stringify(quiet));
    }
    for (const loud of ['HEARTBEAT_OK but the build is red', 'The build is red. HEARTBEAT_OK', 'HEARTBEAT', 'HEARTBEAT OK', 'NOT_HEARTBEAT_OK', '']) {
      assert.equal(isHeartbeatOk(loud), false, JSON.stringify(loud));
    }
  });

  it('a pulse answered "*HEARTBEAT_OK*." lands nowhere', async () => {
    home.writeConfig({ agents: { quiet: { model: script(home, 'quiet', [{ text: '*HEARTBEAT_OK*.' }]), heartbeat: { every_minutes: 30 } } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const outcomes = await pepe.heartbeatRunDue(new Date(2026, 0, 5, 12));
    assert.deepEqual(outcomes.map((o) => o.outcome), ['quiet']);
    assert.equal(pepe.sessionList('quiet').length, 0);
  });

  it("the agent's HEARTBEAT.md (standing instructions) is in the pulse prompt", async () => {
    home.writeConfig({ agents: { watcher: { model: script(home, 'watcher', [{ echo_prompt: true }]), heartbeat: { every_minutes: 30, prompt: 'check CI' } } } });
    const dir = join(home.dir, 'agents', 'watcher');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'HEARTBEAT.md'), '- Look at the nightly build and say if it is red.\n');
    const pepe = await home.pepe({ workspace: home.dir });
    const [outcome] = await pepe.heartbeatRunDue(new Date(2026, 0, 5, 12));
    assert.equal(outcome?.outcome, 'delivered');
    const content = outcome?.outcome === 'delivered' ? outcome.content : '';
    assert.match(content, /check CI/);
    assert.match(content, /Look at the nightly build and say if it is red/);
  });
});
