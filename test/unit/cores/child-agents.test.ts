import assert from 'node:assert/strict';
import { childRequest, selectPipeline } from '../../../src/core/cores/child-options.js';
import { loadCore } from '../../../src/core/cores/load-core.js';
import { runInput, runOutput } from '../../../src/core/cores/runner.js';
import { cleanup, FakeHost, pipelines, scaffolded, slot, turnArgs } from './helpers.js';

const caller = { phase: 'input' as const, slotId: 'asker' };

/** A child core with a full pipeline: pre, base_input, then parallel audit; output: polish, base_output, parallel log. */
function childCore(): string {
  const dir = scaffolded();
  const add = (id: string, phase: 'input' | 'output') =>
    slot(dir, phase, id, {
      module:
        phase === 'input'
          ? `export function process(ctx: any) { if (ctx.group === 'serial') ctx.input.addContext('[${id}]'); }\n`
          : `export function process(ctx: any) { ctx.output.progress('${id}'); }\n`,
    });
  for (const id of ['pre', 'audit', 'extra']) add(id, 'input');
  for (const id of ['polish', 'log']) add(id, 'output');
  slot(dir, 'bootstrap', 'boot', { module: "export function process(ctx: any) { ctx.bootstrap.add('child boot'); }\n" });
  pipelines(dir, { bootstrap: ['boot'], input: ['pre', 'base_input'], inputParallel: ['audit'], output: ['polish', 'base_output'], outputParallel: ['log'] });
  return dir;
}

describe('agent cores: child agents (ctx.agents.run/spawn)', () => {
  afterEach(cleanup);

  it('default options: only base_input/base_output, no bootstrap, the configured tools', () => {
    for (const options of [undefined, {}, { inputSlots: null, outputSlots: [] }]) {
      const r = childRequest('reviewer', 'look', options, caller);
      assert.deepEqual({ input: r.input, output: r.output, tools: r.tools, useBootstrap: r.useBootstrap }, { input: 'base', output: 'base', tools: 'all', useBootstrap: false });
    }
    const core = loadCore(childCore());
    assert.deepEqual(selectPipeline(core, 'input', 'base').pipeline, { serial: ['base_input'], parallel: [] });
    assert.deepEqual(selectPipeline(core, 'output', 'base').pipeline, { serial: ['base_output'], parallel: [] });
  });

  it("'all' runs the child's full configured pipeline", () => {
    const r = childRequest('reviewer', 'look', { inputSlots: 'all', outputSlots: 'all', useBootstrap: true }, caller);
    assert.equal(r.input, 'all');
    assert.equal(r.useBootstrap, true);
    const core = loadCore(childCore());
    assert.deepEqual(selectPipeline(core, 'input', r.input).pipeline, { serial: ['pre', 'base_input'], parallel: ['audit'] });
    assert.deepEqual(selectPipeline(core, 'output', r.output).pipeline, { serial: ['polish', 'base_output'], parallel: ['log'] });
  });

  it('a list filters the active pipeline by id, keeping pipeline order and serial/parallel groups', () => {
    const r = childRequest('reviewer', 'look', { inputSlots: ['audit', 'base_input', 'pre', 'extra'], outputSlots: ['log'] }, caller);
    assert.deepEqual(r.input, { only: ['audit', 'base_input', 'pre', 'extra'] });
    const core = loadCore(childCore());
    const input = selectPipeline(core, 'input', r.input);
    assert.deepEqual(input.pipeline, { serial: ['pre', 'base_input'], parallel: ['audit'] });
    assert.deepEqual(input.missing, ['extra'], 'extra is a slot folder but not in the active pipeline');
    assert.deepEqual(selectPipeline(core, 'output', r.output).pipeline, { serial: [], parallel: ['log'] });
  });

  it("tools: 'none' or [] hides every tool; a list narrows", () => {
    assert.equal(childRequest('a', 't', { tools: 'none' }, caller).tools, 'none');
    assert.equal(childRequest('a', 't', { tools: [] }, caller).tools, 'none');
    assert.deepEqual(childRequest('a', 't', { tools: ['read_file', 'list_dir'] }, caller).tools, { only: ['read_file', 'list_dir'] });
    assert.equal(childRequest('a', 't', { tools: 'all' }, caller).tools, 'all');
  });

  it('bad options are a readable error', () => {
    assert.throws(() => childRequest('a', 't', { input_slots: 'all' }, caller), /ctx\.agents options/);
    assert.throws(() => childRequest('a', 't', { tools: 'some' }, caller), /tools/);
    assert.throws(() => childRequest('', 't', {}, caller), /agent name/);
  });

  it('a list naming an id twice is an error, never silently merged (inputSlots, outputSlots, tools)', () => {
    assert.throws(() => childRequest('a', 't', { inputSlots: ['pre', 'audit', 'pre'] }, caller), /^TypeError: ctx\.agents options: inputSlots: "pre" is named twice \(name each slot once\)$/);
    assert.throws(() => childRequest('a', 't', { outputSlots: ['log', 'log'] }, caller), /^TypeError: ctx\.agents options: outputSlots: "log" is named twice/);
    assert.throws(() => childRequest('a', 't', { tools: ['read_file', 'read_file'] }, caller), /^TypeError: ctx\.agents options: tools: "read_file" is named twice \(name each tool once\)$/);
    assert.deepEqual(childRequest('a', 't', { inputSlots: ['pre', 'audit'], outputSlots: ['log'], tools: ['read_file'] }, caller).input, { only: ['pre', 'audit'] });
  });

  it('the child runs with the selection: runInput/runOutput honour it', async () => {
    const core = loadCore(childCore());
    const host = new FakeHost();
    const base = await runInput(core, host, { ...turnArgs('q'), selection: 'base' });
    assert.deepEqual(base.context.map((c) => c.text), ['q']);
    const all = await runInput(core, host, { ...turnArgs('q'), selection: 'all' });
    assert.deepEqual(all.context.map((c) => c.text), ['[pre]', 'q']);
    const some = await runInput(core, host, { ...turnArgs('q'), selection: { only: ['base_input'] } });
    assert.deepEqual(some.context.map((c) => c.text), ['q']);
    // An id the child's pipeline lacks is an error, not a silent drop.
    await assert.rejects(runInput(core, host, { ...turnArgs('q'), selection: { only: ['base_input', 'ghost'] } }), /inputSlots names "ghost", which is not in the input pipeline/);
    const out = await runOutput(core, host, { ...turnArgs('q'), responseText: 'a', selection: { only: ['log'] } });
    assert.deepEqual([out.delivered, out.progress], ['', ['log']]);
  });

  it('a child core without base slots falls back to the built-in ones', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'own', { module: "export function process(ctx: any) { ctx.input.addContext('own: ' + ctx.input.rawText, { role: 'user' }); }\n" });
    slot(dir, 'output', 'own_out', { module: "export function process(ctx: any) { ctx.output.sendText('own'); }\n" });
    pipelines(dir, { input: ['own'], output: ['own_out'] });
    const { rmSync } = await import('node:fs');
    rmSync(`${dir}/agent/input/base_input`, { recursive: true });
    rmSync(`${dir}/agent/output/base_output`, { recursive: true });
    const core = loadCore(dir);
    const input = await runInput(core, new FakeHost(), { ...turnArgs('q'), selection: 'base' });
    assert.equal(input.userText, 'q');
    const out = await runOutput(core, new FakeHost(), { ...turnArgs('q'), responseText: 'r', selection: 'base' });
    assert.equal(out.delivered, 'r');
  });

  it('ctx.agents.run/spawn need agents.run:<agent>/agents.spawn:<agent> and pass the computed request to the host', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'asker', {
      manifest: { capabilities: '[agents.run:reviewer, agents.spawn:*]', failure_policy: 'hard' },
      module: `export async function process(ctx: PepeCore.InputContext) {
  const r = await ctx.agents.run('reviewer', 'check this', { inputSlots: 'all', tools: 'none' });
  ctx.input.addContext(r.content);
  const h = ctx.agents.spawn('archivist', 'file it', { outputSlots: ['log'], useBootstrap: true });
  ctx.input.addContext(h.taskId + ' ' + (await h.wait()).content);
}
`,
    });
    slot(dir, 'output', 'rogue', {
      manifest: { capabilities: '[agents.run:reviewer]', failure_policy: 'hard' },
      module: "export async function process(ctx: PepeCore.OutputContext) { await ctx.agents.run('billing', 'pay'); }\n",
    });
    pipelines(dir, { input: ['asker', 'base_input'], output: ['rogue'] });
    const host = new FakeHost();
    const input = await runInput(loadCore(dir), host, turnArgs('x'));
    assert.deepEqual(input.context.map((c) => c.text), ['child says: check this', 'task-1 done', 'x']);
    assert.deepEqual(host.agentRuns, [
      { agent: 'reviewer', text: 'check this', input: 'all', output: 'base', tools: 'none', useBootstrap: false, context: [], caller: { phase: 'input', slotId: 'asker' } },
    ]);
    assert.deepEqual(host.spawns, [
      { agent: 'archivist', text: 'file it', input: 'base', output: { only: ['log'] }, tools: 'all', useBootstrap: true, context: [], caller: { phase: 'input', slotId: 'asker' } },
    ]);
    await assert.rejects(runOutput(loadCore(dir), host, { ...turnArgs(), responseText: 'r' }), /needs the capability "agents\.run:billing"/);
  });
});
