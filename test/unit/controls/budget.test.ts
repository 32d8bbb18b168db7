import assert from 'node:assert/strict';
import { budgetRefusal, budgetsFor, worstCaseUsd } from '../../../src/core/runtime/budget.js';
import { collectEvents } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

describe('budgets: limits.max_cost and a project\'s cap, checked before each model call', function () {
  this.timeout(30_000);

  describe('the arithmetic at the boundary', () => {
    it('the worst case is the input plus the most the model may write, at its prices', () => {
      assert.equal(worstCaseUsd(1_000_000, 0, { input_per_mtok: 3 }), 3);
      assert.equal(worstCaseUsd(500_000, 100_000, { input_per_mtok: 2, output_per_mtok: 10 }), 2);
      assert.equal(worstCaseUsd(1_000_000, 1_000_000, undefined), 0, 'no price, no cost');
    });

    const budget = (spentUsd: number) => [{ name: 'the conversation budget', limitUsd: 1, spentUsd }];
    it('exactly what is left fits; a cent over does not', () => {
      assert.equal(budgetRefusal(0.5, budget(0.5)), null);
      assert.equal(budgetRefusal(0.3, [{ name: 'b', limitUsd: 0.3, spentUsd: 0.1 + 0.2 - 0.3 }]), null, 'float noise is not spend');
      assert.equal(budgetRefusal(0.2, [{ name: 'b', limitUsd: 0.3, spentUsd: 0.1 }]), null, '0.1 + 0.2 is within 0.3');
      assert.match(budgetRefusal(0.51, budget(0.5)) ?? '', /^the conversation budget could be exceeded: this call may cost up to \$0\.51 and \$0\.50 of \$1\.00 is left/);
      assert.equal(budgetRefusal(0, budget(1.5)), null, 'a free call always fits');
    });

    it('the agent\'s limits win over the top-level ones; a project adds its cap; spend is this session\'s and this project\'s', () => {
      const records = () => [
        { ts: '', agent: 'a', project: 'p', model: 'm', inputTokens: 0, outputTokens: 0, costUsd: 0.25, sessionId: 's1' },
        { ts: '', agent: 'b', project: 'p', model: 'm', inputTokens: 0, outputTokens: 0, costUsd: 0.5, sessionId: 's2' },
      ];
      const config = { limits: { max_cost: 2 }, projects: { p: { spend_cap_usd: 10 } } };
      const [conversation, project] = budgetsFor(config, { limits: { max_cost: 1 } }, 'p', 's1', records);
      assert.deepEqual({ ...conversation, name: undefined }, { name: undefined, limitUsd: 1, spentUsd: 0.25 });
      assert.match(conversation!.name, /agents\.<agent>\.limits\.max_cost/);
      assert.equal(project!.spentUsd, 0.75);
      assert.equal(budgetsFor(config, {}, null, 's1', records)[0]!.limitUsd, 2);
      assert.deepEqual(budgetsFor({}, {}, null, 's1', records), []);
    });
  });

  describe('in a real turn (the mock model with a price)', () => {
    let home: TempHome;
    beforeEach(() => {
      home = new TempHome();
    });
    afterEach(() => home.cleanup());

    // Output at $1 a token and no input price: a call's worst case is its max_output_tokens in dollars.
    const paid = { provider: 'mock', model: 'mock', price: { input_per_mtok: 0, output_per_mtok: 1_000_000 }, max_output_tokens: 10 };
    const configWith = (limits: Record<string, unknown>) => ({ models: { paid }, agents: { a: { model: 'paid', tools: [] } }, ...limits });

    // Failed against bfd1589: limits.max_cost was not read; every call was made and the turns ended ok.
    it('stops the turn before a call that could cost a cent more than is left, naming the budget; exactly enough runs', async () => {
      home.writeConfig(configWith({ limits: { max_cost: 10 } }));
      const pepe = await home.pepe({ workspace: home.dir });
      const first = await pepe.run({ agent: 'a', text: 'hello there' });
      assert.equal(first.status, 'ok', 'a worst case ($10) exactly equal to the budget runs');

      home.writeConfig(configWith({ limits: { max_cost: 9.99 } }));
      await pepe.reload();
      const { onEvent, events } = collectEvents();
      const stopped = await pepe.run({ agent: 'a', text: 'hello there', onEvent });
      assert.equal(stopped.status, 'budget');
      assert.match(stopped.content, /the conversation budget \(limits\.max_cost, \$9\.99\) could be exceeded: this call may cost up to \$10\.00/);
      assert.ok(events.some((e) => e.type === 'error' && /limits\.max_cost/.test(e.message)));
      // The transcript is consistent: the user's message, no half answer.
      assert.deepEqual(pepe.sessionLoad('a', stopped.sessionId).messages.map((m) => m.role), ['user']);
    });

    it('what the session spent counts: its next turn stops; the agent\'s own limit wins over the top-level one', async () => {
      home.writeConfig(configWith({ limits: { max_cost: 12 } }));
      const pepe = await home.pepe({ workspace: home.dir });
      const first = await pepe.run({ agent: 'a', text: 'hello there' });
      assert.equal(first.status, 'ok');
      assert.ok(pepe.usageRecords()[0]!.costUsd >= 2.01, 'the mock reported output that cost more than $2');
      const second = await pepe.run({ agent: 'a', text: 'again', sessionId: first.sessionId });
      assert.equal(second.status, 'budget', 'spent + $10 could exceed $12');
      const other = await pepe.run({ agent: 'a', text: 'new conversation' });
      assert.equal(other.status, 'ok', 'a new conversation has its own budget');
      home.writeConfig({ ...configWith({ limits: { max_cost: 100 } }), agents: { a: { model: 'paid', tools: [], limits: { max_cost: 5 } } } });
      await pepe.reload();
      const own = await pepe.run({ agent: 'a', text: 'x' });
      assert.equal(own.status, 'budget');
      assert.match(own.content, /agents\.<agent>\.limits\.max_cost, \$5\.00/);
    });

    // Failed against bfd1589: the call was made (the cap only counted once reached).
    it('a project\'s spend cap: a call that could take the project past it is not made', async () => {
      home.writeConfig({ models: { paid }, projects: { p: { spend_cap_usd: 9 } }, agents: { a: { model: 'paid', tools: [], project: 'p' } } });
      const pepe = await home.pepe({ workspace: home.dir });
      const r = await pepe.run({ agent: 'a', text: 'x' });
      assert.equal(r.status, 'budget');
      assert.match(r.content, /project p's spend cap \(\$9\.00\) could be exceeded/);
    });
  });
});
