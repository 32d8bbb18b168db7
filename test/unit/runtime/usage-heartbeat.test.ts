import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tierFor, UsageLedger } from '../../../src/core/runtime/usage.js';
import { withinActiveHours } from '../../../src/core/runtime/heartbeat.js';
import { collectEvents, script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

describe('usage and tiers (spec 4.6)', () => {
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('a record is kept when its folder does not exist yet, or was removed after the first one', () => {
    const root = mkdtempSync(join(tmpdir(), 'pepe-usage-'));
    try {
      const ledger = new UsageLedger(join(root, 'deep', 'usage.jsonl'));
      const r = { agent: 'a', project: null, model: 'm', inputTokens: 1, outputTokens: 1, costUsd: 0 };
      ledger.record(r);
      rmSync(join(root, 'deep'), { recursive: true });
      ledger.record({ ...r, agent: 'b' });
      assert.deepEqual(ledger.all().map((x) => x.agent), ['b']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('tier thresholds', () => {
    const t = { low_compute: 0.75, critical: 0.9, dead: 1 };
    assert.deepEqual([0, 7.4, 7.5, 8.9, 9, 9.99, 10, 12].map((s) => tierFor(s, 10, t)), ['normal', 'normal', 'low_compute', 'low_compute', 'critical', 'critical', 'dead', 'dead']);
    assert.equal(tierFor(100, null, t), 'normal');
  });

  it('a dead project refuses paid models and falls through to the free mock; model calls are recorded', async () => {
    home.writeConfig({
      projects: { acme: { spend_cap_usd: 1 } },
      models: { paid: { provider: 'openai', model: 'gpt', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'K', price: { input_per_mtok: 1, output_per_mtok: 1 } } },
      agents: { a: { model_chain: ['paid', 'mock'], project: 'acme' } },
    });
    const pepe = await home.pepe({ workspace: home.dir });
    pepe['usage'].record({ agent: 'a', project: 'acme', model: 'paid', inputTokens: 1_000_000, outputTokens: 0, costUsd: 1 });
    assert.equal(pepe['usage'].tier(pepe.config, 'acme'), 'dead');
    const { onEvent, events } = collectEvents();
    const r = await pepe.run({ agent: 'a', text: 'hi', onEvent });
    assert.equal(r.content, 'You said: hi');
    const fb = events.find((e) => e.type === 'model_fallback');
    assert.ok(fb?.type === 'model_fallback' && /spend cap/.test(fb.error), 'fb?.type === \'model_fallback\' && /spend cap/.test(fb.error)');
    const records = pepe.usageRecords();
    assert.equal(records.length, 2);
    assert.deepEqual([records[1]!.model, records[1]!.costUsd], ['mock', 0]);
  });

  it('model_select plugins receive the usage tier', async () => {
    home.writePlugin('thrifty.mjs', `export const name = () => 'thrifty'; export const slot = () => 'model_select';
      export function chainFor(agent, ctx) { return ctx.usageTier(agent.project) === 'normal' ? [{ id: 'mock' }] : [{ id: 'mock:cheap.json' }]; }`);
    home.writeConfig({ slots: { model_select: 'thrifty' }, projects: { p: { spend_cap_usd: 1 } }, agents: { a: { project: 'p' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    assert.deepEqual((await pepe.slotTest('model_select', { agent: 'a' })).result, [{ id: 'mock' }]);
    pepe['usage'].record({ agent: 'a', project: 'p', model: 'x', inputTokens: 0, outputTokens: 0, costUsd: 0.95 });
    assert.deepEqual((await pepe.slotTest('model_select', { agent: 'a' })).result, [{ id: 'mock:cheap.json' }]);
  });
});

describe('heartbeat (spec 4.7)', function () {
  this.timeout(20_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('active hours, including ranges across midnight', () => {
    const at = (h: number, m = 0) => new Date(2026, 0, 5, h, m);
    assert.equal(withinActiveHours('09:00-18:00', at(9)), true);
    assert.equal(withinActiveHours('09:00-18:00', at(18)), false);
    assert.equal(withinActiveHours('22:00-06:00', at(23, 30)), true);
    assert.equal(withinActiveHours('22:00-06:00', at(12)), false);
    assert.equal(withinActiveHours(undefined, at(3)), true);
  });

  it('fires due pulses once, honours every_minutes, lands answers unless HEARTBEAT_OK, and the slot can veto', async () => {
    home.writeConfig({
      agents: {
        quiet: { model: script(home, 'quiet', [{ text: 'HEARTBEAT_OK' }]), heartbeat: { every_minutes: 30 } },
        chatty: { model: script(home, 'chatty', [{ text: 'The build is red.' }]), heartbeat: { every_minutes: 30, prompt: 'check CI' } },
        none: { model: 'mock' },
      },
    });
    const pepe = await home.pepe({ workspace: home.dir });
    const now = new Date();
    const outcomes = await pepe.heartbeatRunDue(now);
    assert.deepEqual(outcomes.map((o) => [o.agent, o.outcome]), [['quiet', 'quiet'], ['chatty', 'delivered']]);
    assert.equal(pepe.sessionList('quiet').length, 0, 'HEARTBEAT_OK lands nowhere');
    const chatty = pepe.sessionList('chatty');
    assert.equal(chatty.length, 1);
    assert.match(chatty[0]!.title!, /^heartbeat /);
    assert.deepEqual(await pepe.heartbeatRunDue(new Date(now.getTime() + 10 * 60_000)), [], 'not due again within every_minutes');
    assert.equal((await pepe.heartbeatRunDue(new Date(now.getTime() + 31 * 60_000))).length, 2);

    home.writePlugin('veto.mjs', "export const name = () => 'veto'; export const slot = () => 'heartbeat_interval'; export const allowed = () => false;");
    home.writeConfig({ slots: { heartbeat_interval: 'veto' }, agents: { chatty: { model: 'mock', heartbeat: { every_minutes: 1 } } } });
    await pepe.reload();
    const vetoed = await pepe.heartbeatRunDue(new Date(now.getTime() + 120 * 60_000));
    assert.deepEqual(vetoed, [{ agent: 'chatty', outcome: 'vetoed', by: 'veto' }]);
  });
});
