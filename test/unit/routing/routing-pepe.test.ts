import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TurnEvent } from '../../../src/core/events.js';
import { collectEvents, script, ScriptedPrompter, type Step } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

const send = (to: string, message: string): Step => ({ tool_calls: [{ name: 'send_to_agent', arguments: { to, message } }] });
const starts = (events: TurnEvent[]) => events.filter((e): e is Extract<TurnEvent, { type: 'route_call' }> => e.type === 'route_call' && e.phase === 'start');

describe('routing: names, hops, discretion and project boundaries', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  /** a0 → a1 → … → a(n-1), each consulting the next. */
  function chainOf(n: number): Record<string, unknown> {
    const names = Array.from({ length: n }, (_, i) => `a${i}`);
    const agents: Record<string, unknown> = {};
    names.forEach((name, i) => {
      const next = names[i + 1];
      agents[name] = { model: script(home, name, next ? [send(next, `from ${name}`), { echo_prompt: true }] : [{ text: 'end of the chain' }]), can_message: next ? [next] : [] };
    });
    return agents;
  }

  for (const maxHops of [undefined, 7]) {
    const limit = maxHops ?? 5;
    it(`hop limit ${limit}${maxHops ? '' : ' (default)'}: exactly ${limit} hops pass, the next one is refused (8-agent chain)`, async () => {
      home.writeConfig({ agents: chainOf(8), ...(maxHops ? { limits: { max_hops: maxHops } } : {}) });
      const pepe = await home.pepe({ workspace: home.dir });
      const { onEvent, events } = collectEvents();
      const result = await pepe.run({ agent: 'a0', text: 'go', onEvent });
      const hops = starts(events).map((e) => e.chain.length - 1);
      assert.deepEqual(hops, Array.from({ length: limit }, (_, i) => i + 1));
      if (limit < 7) assert.match(result.content, new RegExp(`the hop limit \\(${limit}\\) is reached`));
      else assert.match(result.content, /end of the chain/, 'seven hops reach the eighth agent');
    });
  }

  it('a chain exactly at the limit is not refused; one agent longer is', async () => {
    home.writeConfig({ agents: chainOf(4), limits: { max_hops: 3 } });
    const pepe = await home.pepe({ workspace: home.dir });
    const atLimit = await pepe.run({ agent: 'a0', text: 'go' });
    assert.match(atLimit.content, /end of the chain/);
    home.writeConfig({ agents: chainOf(5), limits: { max_hops: 3 } });
    await pepe.reload();
    const over = await pepe.run({ agent: 'a0', text: 'go' });
    assert.match(over.content, /the hop limit \(3\) is reached/);
  });

  it('agent names a model writes are matched case-insensitively; the canonical name is used and shown', async () => {
    home.writeConfig({
      agents: {
        triage: { model: script(home, 'triage', [send('Billing', 'hi'), { echo_prompt: true }]), can_message: ['billing'] },
        billing: { model: script(home, 'billing', [{ text: 'billing here' }]) },
      },
    });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'triage', text: 'go', onEvent });
    assert.deepEqual(starts(events).map((e) => e.to), ['billing']);
    assert.match(result.content, /billing here/);
  });

  it('switch_agent and set_route match names case-insensitively too; set_route defaults to allow', async () => {
    home.writeConfig({
      agents: {
        triage: { model: script(home, 'triage', [{ tool_calls: [{ name: 'switch_agent', arguments: { target: 'BILLING' } }] }, { text: 'ok' }]), can_message: ['billing'] },
        billing: { model: script(home, 'billing', [{ tool_calls: [{ name: 'set_route', arguments: { to: 'Refunds' } }] }, { echo_prompt: true }]) },
        refunds: { model: 'mock' },
      },
    });
    const prompter = new ScriptedPrompter([{ kind: 'allow_once' }, { kind: 'allow_once' }]);
    const pepe = await home.pepe({ workspace: home.dir, prompter });
    const switched = await pepe.run({ agent: 'triage', text: 'billing please' });
    assert.equal(switched.switchTo, 'billing', 'the canonical name');
    const routed = await pepe.run({ agent: 'billing', text: 'open a route' });
    assert.match(routed.content, /route billing → refunds allowed/);
    const written = JSON.parse(readFileSync(home.config, 'utf8'));
    assert.deepEqual(written.agents.billing.can_message, ['refunds']);
  });

  it('refusals are discreet: an unknown agent and an existing agent without a route read the same', async () => {
    home.writeConfig({
      agents: {
        billing: { model: script(home, 'billing', [{ tool_calls: [{ name: 'send_to_agent', arguments: { to: 'triage', message: 'x' } }, { name: 'send_to_agent', arguments: { to: 'nobody', message: 'x' } }] }, { text: 'ok' }]), can_message: ['refunds'] },
        triage: { model: 'mock' },
        refunds: { model: 'mock' },
      },
    });
    const pepe = await home.pepe({ workspace: home.dir });
    const result = await pepe.run({ agent: 'billing', text: 'go' });
    const [known, unknown] = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    assert.equal(known!.replace('triage', 'X'), unknown!.replace('nobody', 'X'), 'the model cannot tell an existing agent from a missing one');
    assert.doesNotMatch(known!, /route|refunds|exist/i, 'nothing about the route graph');
  });

  it('agents in different projects never reach each other: send_to_agent, switch_agent, routes', async () => {
    home.writeConfig({
      agents: {
        a: { project: 'acme', model: script(home, 'a', [send('g', 'leak this'), { tool_calls: [{ name: 'switch_agent', arguments: { target: 'g' } }] }, { text: 'done' }]), can_message: ['g'] },
        g: { project: 'globex', model: script(home, 'g', [{ text: 'globex secrets' }]) },
        free: { model: 'mock' },
      },
    });
    const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
    const pepe = await home.pepe({ workspace: home.dir, prompter });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'go', onEvent });
    assert.equal(starts(events).length, 0, 'no routed call crossed the boundary');
    assert.equal(result.switchTo, undefined);
    assert.doesNotMatch(JSON.stringify(result.messages), /globex secrets/);
    assert.equal(pepe.routeGraph().edges.find((e) => e.from === 'a')?.usable, false);
    await assert.rejects(pepe.routeAdd('g', 'a'), /different projects/);
    await assert.rejects(pepe.routeAdd('free', 'a'), /different projects/, 'an agent with no project is outside every project');
    assert.ok((await pepe.doctor()).some((f) => f.area === 'route' && /a → g crosses from project acme to project globex/.test(f.message)));
  });

  it('set_route across projects, or to a missing agent, is refused discreetly and writes nothing', async () => {
    const calls = [{ name: 'set_route', arguments: { to: 'g' } }, { name: 'set_route', arguments: { to: 'nobody' } }];
    home.writeConfig({ agents: { a: { project: 'acme', model: script(home, 'a', [{ tool_calls: calls }, { text: 'ok' }]) }, g: { project: 'globex', model: 'mock' } } });
    const before = readFileSync(home.config, 'utf8');
    const pepe = await home.pepe({ workspace: home.dir, prompter: new ScriptedPrompter([{ kind: 'allow_once' }, { kind: 'allow_once' }]) });
    const result = await pepe.run({ agent: 'a', text: 'go' });
    const [cross, missing] = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    assert.equal(cross!.replace('"g"', 'X'), missing!.replace('"nobody"', 'X'), 'the same words for both');
    assert.doesNotMatch(cross!, /project|acme|globex|exist/i);
    assert.equal(readFileSync(home.config, 'utf8'), before);
  });

  it('projects.<p>.can_message_projects opens the boundary explicitly, in one direction', async () => {
    home.writeConfig({
      projects: { acme: { can_message_projects: ['globex'] } },
      agents: {
        a: { project: 'acme', model: script(home, 'a', [send('g', 'hello'), { echo_prompt: true }]), can_message: ['g'] },
        g: { project: 'globex', model: script(home, 'g', [{ text: 'globex answers' }]) },
      },
    });
    const pepe = await home.pepe({ workspace: home.dir });
    assert.match((await pepe.run({ agent: 'a', text: 'go' })).content, /globex answers/);
    await assert.rejects(pepe.routeAdd('g', 'a'), /different projects/, 'globex opened nothing back');
  });

  it('a hand-over to an agent removed during the turn leaves the conversation where it was, with a notice', async () => {
    home.writeConfig({
      agents: {
        triage: { model: script(home, 'triage', [{ tool_calls: [{ name: 'switch_agent', arguments: { target: 'billing' } }] }, { text: 'connecting you' }]), can_message: ['billing'] },
        billing: { model: 'mock' },
      },
    });
    const pepe = await home.pepe({ workspace: home.dir, prompter: new ScriptedPrompter([{ kind: 'allow_once' }]) });
    const result = await pepe.run({ agent: 'triage', text: 'billing please' });
    assert.equal(result.switchTo, 'billing');
    // Someone removes billing (another window, a hand edit) before the host hands over.
    await pepe.agentRemove('billing');
    const late = pepe.switchTarget(result);
    assert.equal(late.agent, null, 'no hand-over');
    assert.match(late.notice ?? '', /billing no longer exists; the conversation stays with triage/);
    // And a hand-over to an agent that still exists goes through, by its canonical name.
    assert.deepEqual(pepe.switchTarget({ agent: 'triage', switchTo: 'TRIAGE' }), { agent: 'triage' });
  });
});
