import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

describe('approving a parked call runs it now', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  async function parkOne() {
    const ws = home.workspace;
    home.writeConfig({
      agents: {
        builder: { model: script(home, 'builder', [{ tool_calls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'approved later' } }] }, { text: 'parked it' }, { echo_prompt: true }]) },
      },
    });
    const pepe = await home.pepe({ workspace: ws });
    const first = await pepe.run({ agent: 'builder', text: 'write it', personPresent: false });
    const [parked] = await pepe.approvalList();
    assert.ok(parked, 'the write was parked');
    assert.equal(existsSync(join(ws, 'out.txt')), false);
    return { pepe, ws, first, parked };
  }

  it('runs the stored call in its session and directory, returns its result, and the next turn still sees it', async () => {
    const { pepe, ws, first, parked } = await parkOne();
    const outcome = await pepe.approveNow(parked.id);
    assert.equal(outcome.ran, true);
    assert.equal(outcome.isError, false);
    assert.match(outcome.content, /out\.txt/);
    assert.equal(readFileSync(join(ws, 'out.txt'), 'utf8'), 'approved later');
    assert.equal((await pepe['pending'].get(parked.id)).status, 'approved');
    // The next turn of that session is told what ran, and it does not run again.
    const next = await pepe.run({ agent: 'builder', text: 'and now?', sessionId: first.sessionId, personPresent: false });
    assert.match(next.content, new RegExp(`approved the parked call ${parked.id}.*it ran`, 's'));
    const again = await pepe.run({ agent: 'builder', text: 'once more', sessionId: first.sessionId, personPresent: false }).catch(() => null);
    assert.doesNotMatch(again?.content ?? '', new RegExp(`parked call ${parked.id}`), 'told once');
  });

  it('approving a call whose agent no longer exists is refused, and the call stays pending', async () => {
    const { pepe, ws, parked } = await parkOne();
    await pepe.agentRemove('builder');
    await assert.rejects(pepe.approveNow(parked.id), /builder no longer exists/);
    assert.equal((await pepe['pending'].get(parked.id)).status, 'pending');
    assert.equal(existsSync(join(ws, 'out.txt')), false);
  });
});
