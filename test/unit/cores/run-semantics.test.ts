import assert from 'node:assert/strict';
import { composePrompt, inputMessages } from '../../../src/core/cores/history-policy.js';
import { loadCore } from '../../../src/core/cores/load-core.js';
import { runBootstrap, runInput, runOutput } from '../../../src/core/cores/runner.js';
import { cleanup, FakeHost, pipelines, scaffolded, slot, turnArgs, write } from './helpers.js';

describe('agent cores: run-time semantics as upstream', () => {
  afterEach(cleanup);

  it('system addContext is transient by default: it does not repeat in later prompts', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'hint', { module: "export function process(ctx: any) { ctx.input.addContext('Be brief.'); }\n" });
    pipelines(dir, { input: ['hint', 'base_input'] });
    const input = await runInput(loadCore(dir), new FakeHost(), turnArgs('q1'));
    const persisted = inputMessages(input.context).persist;
    assert.deepEqual(persisted.map((m) => m.content), ['q1']);
    const later = composePrompt({ system: [{ role: 'system', content: 'S' }], bootstrap: [], history: persisted, context: [] });
    assert.equal(later.filter((m) => m.content === 'Be brief.').length, 0);
  });

  it('empty or whitespace text is ignored everywhere', async () => {
    const dir = scaffolded();
    slot(dir, 'bootstrap', 'blank', { module: "export function process(ctx: any) { ctx.bootstrap.add('  '); ctx.bootstrap.add('kept'); }\n" });
    slot(dir, 'input', 'blank_in', { module: "export function process(ctx: any) { ctx.input.addContext(' \\n '); ctx.input.addContext('', { role: 'user' }); ctx.input.notice('  '); }\n" });
    slot(dir, 'output', 'blank_out', { module: "export function process(ctx: any) { ctx.output.sendText('   '); ctx.output.progress(''); ctx.output.sendText('ok'); }\n" });
    pipelines(dir, { bootstrap: ['blank'], input: ['blank_in', 'base_input'], output: ['blank_out'] });
    const core = loadCore(dir);
    const host = new FakeHost();
    assert.deepEqual((await runBootstrap(core, host)).texts, ['kept']);
    const input = await runInput(core, host, turnArgs('q'));
    assert.deepEqual(input.context.map((c) => c.text), ['q']);
    const out = await runOutput(core, host, { ...turnArgs(), responseText: 'r' });
    assert.deepEqual(out.sent.map((s) => s.text), ['ok']);
    assert.deepEqual([out.progress, out.notices, input.notices], [[], [], []]);
  });

  it('ctx.result.set merges objects across serial output slots; non-JSON values fail the slot', async () => {
    const dir = scaffolded();
    slot(dir, 'output', 'first', { module: "export function process(ctx: any) { ctx.result.set({ summary: 's', n: 1 }); }\n" });
    slot(dir, 'output', 'second', { module: "export function process(ctx: any) { ctx.result.set({ n: 2, audio: 'a.mp3' }); }\n" });
    slot(dir, 'output', 'map', { module: "export function process(ctx: any) { ctx.result.set({ m: new Map([[1, 2]]) }); }\n" });
    slot(dir, 'output', 'nan', { module: "export function process(ctx: any) { ctx.result.set({ score: NaN }); }\n" });
    slot(dir, 'output', 'fn', { module: "export function process(ctx: any) { ctx.result.set({ f: () => 1 }); }\n" });
    pipelines(dir, { output: ['first', 'second', 'map', 'nan', 'fn'] });
    const out = await runOutput(loadCore(dir), new FakeHost(), { ...turnArgs(), responseText: 'r' });
    assert.deepEqual(out.result, { summary: 's', n: 2, audio: 'a.mp3' });
    assert.deepEqual(
      out.failures.map((f) => [f.slotId, /not JSON/.test(f.message)]),
      [['map', true], ['nan', true], ['fn', true]],
    );
  });

  it('a slot that returns a value gets a return_ignored event', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'returner', { module: "export function process() { return { context: 'x' }; }\n" });
    pipelines(dir, { input: ['returner', 'base_input'] });
    const host = new FakeHost();
    await runInput(loadCore(dir), host, turnArgs());
    assert.deepEqual(host.events.filter((e) => e.type === 'core_return_ignored'), [{ type: 'core_return_ignored', phase: 'input', slotId: 'returner', valueType: 'object' }]);
  });

  it('history: no capability needed, non-positive limit gives [], metadata carried, output slots see the turn', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'peek', {
      module: `export function process(ctx: any) {
  ctx.input.addContext(JSON.stringify([ctx.history.recentMessages(0), ctx.history.recentMessages(-3), ctx.history.recentMessages(1)]), { role: 'user' });
}
`,
    });
    slot(dir, 'output', 'see', {
      module: "export function process(ctx: any) { ctx.output.sendText(ctx.history.recentMessages(2).map((m: any) => m.role + ':' + m.content + ':' + m.turnId).join('|')); }\n",
    });
    pipelines(dir, { input: ['peek'], output: ['see'] });
    const core = loadCore(dir);
    const history = [{ role: 'assistant' as const, content: 'hidden', history_policy: 'model_hidden', core_slot: 'x' }];
    const input = await runInput(core, new FakeHost(), { ...turnArgs(), history });
    assert.deepEqual(JSON.parse(input.userText), [[], [], [{ role: 'assistant', content: 'hidden', modelVisible: false, slotId: 'x' }]]);
    const out = await runOutput(core, new FakeHost(), { ...turnArgs('question'), responseText: 'answer', history: [] });
    assert.equal(out.delivered, 'user:question:t1|assistant:answer:t1');
  });

  it('input slots get sendText, progress, notice, attachments, turn metadata, core id and revision, a core-relative slotPath', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'rich', {
      module: `export function process(ctx: any) {
  ctx.input.sendText('transcribing…');
  ctx.input.progress('step 1');
  ctx.input.notice('heads up');
  ctx.input.addContext(JSON.stringify({ a: ctx.input.attachments, m: ctx.turn.metadata, id: ctx.turn.coreId, rev: ctx.turn.coreRevision.length > 0, path: ctx.slotPath }), { role: 'user' });
}
`,
    });
    pipelines(dir, { input: ['rich'] });
    const host = new FakeHost();
    const input = await runInput(loadCore(dir), host, { ...turnArgs(), metadata: { channel: 'cli' }, attachments: [{ name: 'voice.ogg', type: 'audio/ogg' }] });
    assert.deepEqual(JSON.parse(input.userText), { a: [{ name: 'voice.ogg', type: 'audio/ogg' }], m: { channel: 'cli' }, id: 'tester', rev: true, path: 'agent/input/rich' });
    assert.deepEqual(input.sent.map((s) => [s.text, s.historyPolicy]), [['transcribing…', 'transient']]);
    assert.deepEqual([input.progress, input.notices], [['step 1'], ['heads up']]);
    assert.ok(host.events.some((e) => e.type === 'core_sent' && e.text === 'transcribing…'));
  });

  it("a core's own skills can be activated; an unknown skill is ignored with a notice", async () => {
    const dir = scaffolded();
    write(dir, 'agent/skills/release/SKILL.md', 'Check the changelog.\n');
    slot(dir, 'input', 'skills', {
      manifest: { capabilities: '[skill.activate]' },
      module: "export async function process(ctx: any) { await ctx.skills.activate('release'); await ctx.skills.activate('nope'); }\n",
    });
    pipelines(dir, { input: ['skills', 'base_input'] });
    const host = new FakeHost();
    const input = await runInput(loadCore(dir), host, turnArgs());
    assert.deepEqual(input.failures, []);
    assert.deepEqual(host.skills, ['release:Check the changelog.']);
    assert.deepEqual(input.skills, ['release']);
    assert.match(input.notices[0]!, /skill "nope" is unknown.*ignored/);
  });

  it('the parallel lane starts alongside the serial lane', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'slow', {
      module: "export async function process(ctx: any) { await new Promise((r) => setTimeout(r, 300)); ctx.input.addContext('slow done'); }\n",
    });
    slot(dir, 'input', 'side', {
      manifest: { capabilities: '[state.session.write]' },
      module: "export function process(ctx: any) { ctx.state.session.set('at', Date.now()); }\n",
    });
    pipelines(dir, { input: ['slow', 'base_input'], inputParallel: ['side'] });
    const host = new FakeHost();
    const started = Date.now();
    await runInput(loadCore(dir), host, turnArgs());
    const at = host.state.session.at as number;
    assert.ok(at - started < 250, `the parallel slot ran ${at - started} ms after the phase started (after the serial lane)`);
  });
});
