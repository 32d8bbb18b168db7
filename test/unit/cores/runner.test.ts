import assert from 'node:assert/strict';
import { composePrompt, inputMessages, modelHistory, outputMessages } from '../../../src/core/cores/history-policy.js';
import { loadCore } from '../../../src/core/cores/load-core.js';
import { CoreSlotError, NoUserTextError, runBootstrap, runInput, runOutput } from '../../../src/core/cores/runner.js';
import { cleanup, FakeHost, pipelines, scaffolded, slot, turnArgs } from './helpers.js';

describe('agent cores: running the pipelines', () => {
  afterEach(cleanup);

  it('base_input makes the raw text the user message; base_output delivers the answer', async () => {
    const dir = scaffolded();
    const core = loadCore(dir);
    const host = new FakeHost();
    const input = await runInput(core, host, turnArgs('what time is it?'));
    assert.equal(input.userText, 'what time is it?');
    assert.deepEqual(input.context.map((c) => [c.role, c.slotId, c.historyPolicy]), [['user', 'base_input', 'persist']]);
    const output = await runOutput(core, host, { ...turnArgs('what time is it?'), responseText: 'noon' });
    assert.equal(output.delivered, 'noon');
    assert.equal(output.recorded, true);
    assert.deepEqual(output.sent, [{ text: 'noon', slotId: 'base_output', historyPolicy: 'persist', visible: true }]);
  });

  it("an input slot's addContext with role system lands in the prompt before the user message", async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'concise', { module: "export function process(ctx: PepeCore.InputContext) { ctx.input.addContext('Prefer concise answers.', { role: 'system' }); }\n" });
    pipelines(dir, { input: ['concise', 'base_input'] });
    const input = await runInput(loadCore(dir), new FakeHost(), turnArgs('hi'));
    const prompt = composePrompt({ system: [{ role: 'system', content: 'You are tester.' }], bootstrap: ['Session rule.'], history: [], context: input.context });
    assert.deepEqual(
      prompt.map((m) => [m.role, m.content]),
      [
        ['system', 'You are tester.'],
        ['system', 'Session rule.'],
        ['system', 'Prefer concise answers.'],
        ['user', 'hi'],
      ],
    );
  });

  it('no input slot producing user text fails the turn clearly', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'quiet', { module: 'export function process() {}\n' });
    pipelines(dir, { input: ['quiet'] });
    await assert.rejects(runInput(loadCore(dir), new FakeHost(), turnArgs()), (e: unknown) => e instanceof NoUserTextError && /produced no user text.*base_input/.test(e.message));
  });

  for (const policy of ['soft', 'hard'] as const) {
    it(`a parallel input slot that adds context fails under its policy (${policy})`, async () => {
      const dir = scaffolded();
      slot(dir, 'input', 'sneaky', {
        manifest: { failure_policy: policy },
        module: "export function process(ctx: PepeCore.InputContext) { ctx.input.addContext('injected', { role: 'system' }); }\n",
      });
      pipelines(dir, { input: ['base_input'], inputParallel: ['sneaky'] });
      const host = new FakeHost();
      const run = runInput(loadCore(dir), host, turnArgs('go on'));
      if (policy === 'soft') {
        const input = await run;
        assert.equal(input.userText, 'go on');
        assert.ok(!input.context.some((c) => c.text === 'injected'));
        assert.equal(input.failures.length, 1);
        assert.match(input.failures[0]!.message, /parallel input slot "sneaky" cannot change the prompt/);
        assert.ok(host.events.some((e) => e.type === 'core_slot_failed' && e.slotId === 'sneaky' && e.policy === 'soft'));
      } else {
        await assert.rejects(run, (e: unknown) => e instanceof CoreSlotError && e.slotId === 'sneaky' && /input slot "sneaky" failed: parallel input slot "sneaky" cannot change the prompt/.test(e.message));
      }
    });
  }

  it('a soft-failing serial slot leaves no half effects; the phase goes on', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'flaky', { module: "export function process(ctx: PepeCore.InputContext) { ctx.input.addContext('half'); throw new Error('boom'); }\n" });
    pipelines(dir, { input: ['flaky', 'base_input'] });
    const input = await runInput(loadCore(dir), new FakeHost(), turnArgs('x'));
    assert.deepEqual(input.context.map((c) => c.text), ['x']);
    assert.deepEqual(input.failures.map((f) => [f.slotId, f.message]), [['flaky', 'boom']]);
  });

  it('an output slot that sends a transformed answer replaces the delivered text', async () => {
    const dir = scaffolded();
    slot(dir, 'output', 'shout', { module: 'export function process(ctx: PepeCore.OutputContext) { ctx.output.sendText(ctx.output.responseText.toUpperCase()); }\n' });
    pipelines(dir, { output: ['shout'] });
    const output = await runOutput(loadCore(dir), new FakeHost(), { ...turnArgs(), responseText: 'quiet answer' });
    assert.equal(output.delivered, 'QUIET ANSWER');
    const { rawRecord, persist } = outputMessages('quiet answer', output.sent);
    assert.equal(rawRecord.content, 'quiet answer');
    assert.deepEqual(persist.map((m) => m.content), ['QUIET ANSWER']);
    assert.deepEqual(modelHistory([rawRecord, ...persist]).map((m) => m.content), ['QUIET ANSWER']);
  });

  it('with no output slot sending, nothing is delivered and the response stays only in the runtime records', async () => {
    const dir = scaffolded();
    slot(dir, 'output', 'observer', { module: "export function process(ctx: PepeCore.OutputContext) { ctx.output.progress('saw it'); }\n" });
    pipelines(dir, { output: ['observer'] });
    const output = await runOutput(loadCore(dir), new FakeHost(), { ...turnArgs(), responseText: 'the answer' });
    assert.equal(output.delivered, '');
    assert.equal(output.recorded, false);
    assert.deepEqual(output.progress, ['saw it']);
    const { rawRecord, persist } = outputMessages('the answer', output.sent);
    assert.deepEqual(persist, []);
    assert.deepEqual(modelHistory([rawRecord]), []);
  });

  it('parallel output slots may send transient text but not write history or the result', async () => {
    const dir = scaffolded();
    slot(dir, 'output', 'ping', { module: "export function process(ctx: PepeCore.OutputContext) { ctx.output.sendText('fyi'); }\n" });
    slot(dir, 'output', 'writer', { module: "export function process(ctx: PepeCore.OutputContext) { ctx.output.sendText('x', { historyPolicy: 'persist' }); }\n" });
    slot(dir, 'output', 'setter', { module: 'export function process(ctx: PepeCore.OutputContext) { ctx.result.set({ a: 1 }); }\n' });
    pipelines(dir, { output: ['base_output'], outputParallel: ['ping', 'writer', 'setter'] });
    const output = await runOutput(loadCore(dir), new FakeHost(), { ...turnArgs(), responseText: 'ok' });
    assert.deepEqual(output.sent.map((s) => [s.slotId, s.historyPolicy]), [['base_output', 'persist'], ['ping', 'transient']]);
    assert.deepEqual(output.failures.map((f) => f.slotId), ['writer', 'setter']);
    assert.match(output.failures[0]!.message, /cannot write session history/);
    assert.match(output.failures[1]!.message, /cannot change the result/);
    assert.equal(output.result, null);
  });

  it('serial output slots set the result; history policies come from slot.yaml or the call', async () => {
    const dir = scaffolded();
    slot(dir, 'output', 'summary', {
      manifest: { history_policy: 'model_hidden' },
      module: "export function process(ctx: PepeCore.OutputContext) { ctx.output.sendText('shown, hidden from the model'); ctx.output.sendText('note', { visible: false, historyPolicy: 'persist' }); ctx.output.sendText('once', { historyPolicy: 'transient' }); ctx.result.set({ score: 3 }); }\n",
    });
    pipelines(dir, { output: ['summary'] });
    const output = await runOutput(loadCore(dir), new FakeHost(), { ...turnArgs(), responseText: 'r' });
    assert.deepEqual(output.result, { score: 3 });
    assert.equal(output.delivered, 'shown, hidden from the model\n\nonce');
    const { persist } = outputMessages('r', output.sent);
    assert.deepEqual(persist.map((m) => [m.content, (m as Record<string, unknown>).history_policy ?? 'persist']), [
      ['shown, hidden from the model', 'model_hidden'],
      ['note', 'persist'],
    ]);
    assert.deepEqual(modelHistory(persist).map((m) => m.content), ['note']);
  });

  it('input history policies: transient context is used now but not persisted', () => {
    const msgs = inputMessages([
      { role: 'system', text: 'now only', slotId: 'a', placement: 'pre_current_user', historyPolicy: 'transient' },
      { role: 'user', text: 'hello', slotId: 'base_input', placement: 'pre_current_user', historyPolicy: 'persist' },
      { role: 'system', text: 'after', slotId: 'b', placement: 'post_current_user', historyPolicy: 'model_hidden' },
    ]);
    assert.deepEqual(msgs.turn.map((m) => m.content), ['now only', 'hello', 'after']);
    assert.deepEqual(msgs.persist.map((m) => m.content), ['hello', 'after']);
    assert.deepEqual(modelHistory(msgs.persist).map((m) => m.content), ['hello']);
  });

  for (const policy of ['soft', 'hard'] as const) {
    it(`a slot that exceeds timeout_seconds is stopped and handled by its policy (${policy})`, async () => {
      const dir = scaffolded();
      slot(dir, 'input', 'slow', {
        manifest: { timeout_seconds: '0.1', failure_policy: policy },
        module: `export async function process(ctx: PepeCore.InputContext) {
  await new Promise((r) => setTimeout(r, 400));
  (globalThis as any).__lateAdd = () => ctx.input.addContext('too late');
}
`,
      });
      pipelines(dir, { input: ['slow', 'base_input'] });
      const started = Date.now();
      const run = runInput(loadCore(dir), new FakeHost(), turnArgs('x'));
      if (policy === 'hard') {
        await assert.rejects(run, (e: unknown) => e instanceof CoreSlotError && e.timedOut && /input slot "slow" failed: timed out after 0.1 s/.test(e.message));
      } else {
        const input = await run;
        assert.equal(input.userText, 'x');
        assert.deepEqual(input.failures.map((f) => [f.slotId, f.timedOut]), [['slow', true]]);
      }
      assert.ok(Date.now() - started < 350, 'the pipeline did not wait for the slow slot');
      await new Promise((r) => setTimeout(r, 400));
      const late = (globalThis as { __lateAdd?: () => void }).__lateAdd;
      assert.throws(() => late!(), /input slot "slow" was stopped \(timed out/);
      delete (globalThis as { __lateAdd?: unknown }).__lateAdd;
    });
  }

  it('capability.require names the capability and the slot.yaml to edit; tools.call needs tool.call:<name>', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'reader', {
      manifest: { capabilities: '[tool.call:read_file]', failure_policy: 'hard' },
      module: `export async function process(ctx: PepeCore.InputContext) {
  if (!ctx.capability.can('tool.call:read_file') || ctx.capability.can('tool.call:bash')) throw new Error('can() is wrong');
  const r = await ctx.tools.call('read_file', { path: 'README.md' });
  ctx.input.addContext(r.content);
  await ctx.tools.call('bash', { command: 'ls' });
}
`,
    });
    slot(dir, 'input', 'fs', { manifest: { failure_policy: 'hard' }, module: "export function process(ctx: PepeCore.InputContext) { ctx.capability.require('fs.read'); }\n" });
    pipelines(dir, { input: ['reader', 'base_input'] });
    const host = new FakeHost();
    await assert.rejects(runInput(loadCore(dir), host, turnArgs()), (e: unknown) => {
      assert.ok(e instanceof CoreSlotError);
      assert.match(e.message, /input slot "reader" needs the capability "tool\.call:bash": add it to "capabilities:" in .*agent\/input\/reader\/slot\.yaml/);
      return true;
    });
    assert.deepEqual(host.toolCalls.map((c) => [c.name, c.args, c.caller]), [['read_file', { path: 'README.md' }, { phase: 'input', slotId: 'reader' }]]);

    pipelines(dir, { input: ['fs', 'base_input'] });
    await assert.rejects(runInput(loadCore(dir), host, turnArgs()), /input slot "fs" needs the capability "fs\.read": add it to "capabilities:" in .*agent\/input\/fs\/slot\.yaml/);
  });

  it('state is loaded from and persisted through the host; writes need the write capability', async () => {
    const dir = scaffolded();
    slot(dir, 'output', 'counter', {
      manifest: { capabilities: '[state.session.write, state.core.read]' },
      module: `export function process(ctx: PepeCore.OutputContext) {
  ctx.state.session.set('count', (ctx.state.session.get<number>('count') ?? 0) + 1);
  ctx.state.session.append('seen', ctx.output.responseText);
  ctx.state.session.merge('meta', { last: ctx.turn.turnId });
  ctx.output.sendText(JSON.stringify(ctx.state.session.snapshot()) + ' core=' + String(ctx.state.core.get('k')));
  ctx.state.core.set('k', 2);
}
`,
    });
    pipelines(dir, { output: ['counter'] });
    const host = new FakeHost();
    host.state.session = { count: 4 };
    host.state.core = { k: 1 };
    const out = await runOutput(loadCore(dir), host, { ...turnArgs(), responseText: 'r1' });
    assert.equal(out.delivered, '');
    assert.match(out.failures[0]!.message, /needs the capability "state\.core\.write"/);
    assert.deepEqual(host.state.session, { count: 5, seen: ['r1'], meta: { last: 't1' } });
    assert.deepEqual(host.state.core, { k: 1 });
  });

  it('bootstrap collects texts once; turn-time clients are not available to it', async () => {
    const dir = scaffolded();
    slot(dir, 'bootstrap', 'rules', { module: "export function process(ctx: PepeCore.BootstrapContext) { ctx.bootstrap.add('Always cite files.'); ctx.bootstrap.add('Session ' + ctx.sessionId); return 'ignored'; }\n" });
    slot(dir, 'bootstrap', 'greedy', { module: "export function process(ctx: any) { ctx.bootstrap.add('never'); return ctx.tools.call('bash', {}); }\n" });
    pipelines(dir, { bootstrap: ['rules', 'greedy'] });
    const result = await runBootstrap(loadCore(dir), new FakeHost());
    assert.deepEqual(result.texts, ['Always cite files.', 'Session sess-1']);
    assert.match(result.failures[0]!.message, /ctx\.tools is not available to bootstrap slots/);
  });

  it('skills.activate goes to the host and needs skill.activate; history.recentMessages reads the session', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'skilful', {
      manifest: { capabilities: '[skill.activate, history.read]', failure_policy: 'hard' },
      module: `export async function process(ctx: PepeCore.InputContext) {
  await ctx.skills.activate('manage-routing');
  const recent = ctx.history.recentMessages(2, { roles: ['user'] });
  ctx.input.addContext(recent.map((m) => m.content).join('|'));
}
`,
    });
    pipelines(dir, { input: ['skilful', 'base_input'] });
    const host = new FakeHost();
    const history = [
      { role: 'user' as const, content: 'u1' },
      { role: 'assistant' as const, content: 'a1' },
      { role: 'user' as const, content: 'u2' },
      { role: 'assistant' as const, content: 'raw', runtime_record: true },
      { role: 'user' as const, content: 'u3' },
    ];
    const input = await runInput(loadCore(dir), host, { ...turnArgs('q'), history });
    assert.deepEqual(host.skills, ['manage-routing']);
    assert.deepEqual(input.skills, ['manage-routing']);
    assert.equal(input.context[0]!.text, 'u2|u3');
  });

  it('in an untrusted workspace only the built-in base slots run, and the result says why', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'evil', { module: "throw new Error('must not be loaded');\n" });
    slot(dir, 'output', 'shout', { module: 'export function process(ctx: any) { ctx.output.sendText(ctx.output.responseText.toUpperCase()); }\n' });
    pipelines(dir, { input: ['evil', 'base_input'], output: ['shout'] });
    const core = loadCore(dir, { trusted: false });
    const host = new FakeHost();
    const boot = await runBootstrap(core, host);
    assert.deepEqual(boot.texts, []);
    const input = await runInput(core, host, turnArgs('hi'));
    assert.equal(input.userText, 'hi');
    assert.match(input.restricted!, /not trusted/);
    assert.match(input.notices[0]!, /only base_input\/base_output ran/);
    const output = await runOutput(core, host, { ...turnArgs('hi'), responseText: 'answer' });
    assert.equal(output.delivered, 'answer');
    assert.ok(host.events.some((e) => e.type === 'core_restricted'));
  });

  it('a cancelled turn stops the running slot and the phase', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'waits', { manifest: { failure_policy: 'soft' }, module: 'export async function process(ctx: any) { await new Promise((r) => setTimeout(r, 2000)); }\n' });
    pipelines(dir, { input: ['waits', 'base_input'] });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await assert.rejects(runInput(loadCore(dir), new FakeHost(), { ...turnArgs(), signal: ac.signal }), /cancelled/);
  });
});

describe('agent cores: the acceptance fixture', () => {
  it('test/fixtures/cores/acceptance checks clean and runs as documented', async () => {
    const { join } = await import('node:path');
    const { checkCore } = await import('../../../src/core/cores/load-core.js');
    const dir = join(import.meta.dirname, '../../fixtures/cores/acceptance');
    assert.deepEqual(checkCore(dir), []);
    const core = loadCore(dir);
    const host = new FakeHost();
    assert.deepEqual((await runBootstrap(core, host)).texts, ['BOOTSTRAP RULE: answer as the acceptance agent.']);
    const input = await runInput(core, host, turnArgs('hi'));
    assert.deepEqual(input.context.map((c) => [c.role, c.text]), [['system', 'SYSTEM NOTE: be brief.'], ['user', 'hi']]);
    assert.deepEqual(input.failures.map((f) => f.slotId), ['sneaky']);
    assert.equal((await runOutput(core, host, { ...turnArgs('hi'), responseText: 'hello' })).delivered, 'HELLO');
  });
});
