import assert from 'node:assert/strict';
import { EXPECTED_REASONS, GUARDED_SLOTS, MISBEHAVIOURS, misbehavingPlugin, pluginName, type GuardedSlot } from '../../fixtures/plugins/misbehaving.js';
import { startInstantAnswerServer } from '../helpers/ddg-server.js';
import { TempHome, TickMonitor } from '../helpers/home.js';

const DEADLINE_MS = 800;
const MARGIN_MS = 700;
/**
 * A plugin running on the caller's thread would block it for the whole deadline (a sync loop
 * never yields), so any blocked time well under the deadline proves isolation. Blocked time is
 * what the thread itself spent busy (test/fixtures/faults/stall-meter.cjs), so a busy machine that
 * merely delays the test's timer does not count.
 */
const MAX_TICK_GAP_MS = DEADLINE_MS / 2;


const INPUT: Record<GuardedSlot, { query?: string; command?: string[] }> = {
  memory: { query: 'pepe' },
  web_search: { query: 'pepe' },
  sandbox: { command: ['echo', 'ran'] },
  model_select: {},
  heartbeat_interval: {},
  compaction: {},
};

describe('slot guard: every slot × every misbehaviour (spec 3.3)', function () {
  this.timeout(30_000);
  let home: TempHome;
  let ddg: Awaited<ReturnType<typeof startInstantAnswerServer>>;

  before(async () => {
    ddg = await startInstantAnswerServer();
  });
  after(async () => {
    await ddg.close();
  });
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  for (const slot of GUARDED_SLOTS) {
    for (const behaviour of MISBEHAVIOURS) {
      const outcome = slot === 'sandbox' ? 'is refused' : 'is answered by the built-in';
      it(`${slot} / ${behaviour}: ${outcome} within the deadline, recorded, host responsive`, async () => {
        const name = pluginName(slot, behaviour);
        home.writePlugin(`${name}.mjs`, misbehavingPlugin(slot, behaviour));
        home.writeConfig({
          slots: { [slot]: name },
          agents: { a: { model: 'mock' } },
          web_search: { endpoint: ddg.url },
          slot_deadlines_ms: { [slot]: DEADLINE_MS },
        });
        const pepe = await home.pepe();
        await pepe.pluginList(); // load outside the timed window, as a running host would have
        const monitor = new TickMonitor();
        const started = performance.now();
        const answer = await pepe.slotTest(slot, { agent: 'a', ...INPUT[slot] });
        const elapsed = performance.now() - started;
        monitor.stop();

        assert.equal(answer.occupant, name);
        assert.ok(answer.fallback, 'a fallback is reported');
        assert.ok(EXPECTED_REASONS[behaviour].includes(answer.fallback.reason), `reason ${answer.fallback.reason}: ${answer.fallback.detail}`);
        assert.ok(elapsed < DEADLINE_MS + MARGIN_MS, `answered in ${elapsed.toFixed(0)} ms`);
        assert.ok(monitor.maxBlockedMs < MAX_TICK_GAP_MS, `event loop blocked for ${monitor.maxBlockedMs.toFixed(0)} ms (longest gap ${monitor.maxGapMs.toFixed(0)} ms)`);
        if (slot === 'sandbox') {
          assert.equal(answer.answeredBy, 'none (refused)');
          assert.equal(answer.result, null);
          assert.match(answer.refused ?? '', /refused, not run outside the sandbox/);
        } else {
          assert.equal(answer.answeredBy, 'builtin');
          assert.notEqual(answer.result, undefined);
        }
        const records = pepe['log'].readAll().filter((e) => e.kind === 'slot_fallback');
        assert.equal(records.length, 1);
        assert.deepEqual(
          { slot: records[0]!.kind === 'slot_fallback' && records[0]!.slot, reason: records[0]!.kind === 'slot_fallback' && records[0]!.reason },
          { slot, reason: answer.fallback.reason },
        );
        const status = (await pepe.slotList({ agent: 'a' })).find((s) => s.slot === slot)!;
        assert.equal(status.fallbacks.count, 1);
        assert.match(status.fallbacks.lastReason ?? '', new RegExp(`^${answer.fallback.reason}:`));
      });
    }
  }
});
