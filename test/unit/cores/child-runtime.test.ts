import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectEvents, script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/** A core folder with base_input/base_output and the given extra slots (module bodies). */
function core(home: TempHome, name: string, extra: { phase: 'input' | 'output'; id: string; body: string; yaml?: string }[], lists: { input?: string[]; output?: string[] } = {}): string {
  const dir = join(home.dir, 'cores', name);
  const slot = (phase: string, id: string, body: string, yaml: string) => {
    mkdirSync(join(dir, 'agent', phase, id), { recursive: true });
    writeFileSync(join(dir, 'agent', phase, id, 'module.ts'), `export async function process(ctx: any) {\n${body}\n}\n`);
    writeFileSync(join(dir, 'agent', phase, id, 'slot.yaml'), yaml);
  };
  slot('input', 'base_input', "ctx.input.addContext(ctx.input.rawText, { role: 'user' });", 'failure_policy: hard\n');
  slot('output', 'base_output', 'ctx.output.sendText(ctx.output.responseText);', 'failure_policy: hard\n');
  for (const s of extra) slot(s.phase, s.id, s.body, s.yaml ?? 'failure_policy: soft\n');
  const input = lists.input ?? ['base_input'];
  const output = lists.output ?? ['base_output'];
  writeFileSync(join(dir, 'agent/pipelines.yaml'), `schema_version: 1\ninput: { serial: [${input.join(', ')}] }\noutput: { serial: [${output.join(', ')}] }\n`);
  return dir;
}

describe('agent cores: child agents in the runtime (depth, cycles, spawn, results)', function () {
  this.timeout(60_000);
  let home: TempHome;
  beforeEach(() => (home = new TempHome()));
  afterEach(() => home.cleanup());

  it('a slot that runs its own agent with its full pipeline is stopped at the cycle, not run thousands of times', async () => {
    const dir = core(home, 'selfish', [
      { phase: 'output', id: 'recurse', body: "const r = await ctx.agents.run(ctx.turn.coreId, 'again', { inputSlots: 'all', outputSlots: 'all' }); ctx.output.notice('child: ' + r.status);", yaml: 'failure_policy: soft\ncapabilities: [agents.run:*]\n' },
    ], { output: ['base_output', 'recurse'] });
    home.writeConfig({ agents: { a: { model: 'mock', core: dir } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'hi', onEvent });
    assert.equal(result.status, 'ok', result.error);
    assert.equal(events.filter((e) => e.type === 'turn_start').length, 2, 'the parent and one child');
    const failed = events.filter((e) => e.type === 'core' && e.event.type === 'core_slot_failed').map((e) => (e.type === 'core' && e.event.type === 'core_slot_failed' ? e.event.message : ''));
    assert.match(failed.join('\n'), /already delegating in this chain .*would be a cycle/);
  });

  it('a chain of distinct agents stops at the delegation depth limit', async () => {
    const names = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'];
    const agents: Record<string, unknown> = {};
    names.forEach((name, i) => {
      const next = names[i + 1];
      const extra = next
        ? [{ phase: 'input' as const, id: 'pass_on', body: `const r = await ctx.agents.run('${next}', 'deeper', { inputSlots: 'all' }); ctx.input.addContext('below: ' + r.content);`, yaml: 'failure_policy: hard\ncapabilities: [agents.run:*]\n' }]
        : [];
      agents[name] = { model: 'mock', core: core(home, name, extra, { input: next ? ['pass_on', 'base_input'] : ['base_input'] }) };
    });
    home.writeConfig({ agents });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a0', text: 'hi', onEvent });
    assert.equal(result.status, 'error');
    assert.match(result.error ?? '', /child agents may nest 5 deep at most/);
    assert.equal(events.filter((e) => e.type === 'turn_start').length, 6);
  });

  it('spawn returns a running status, records a task, and notifies the parent when the child ends', async () => {
    const parent = core(home, 'parent', [
      { phase: 'output', id: 'spawner', body: "const h = ctx.agents.spawn('child', 'background work'); ctx.output.sendText('spawned ' + h.status); const r = await h.wait(); ctx.output.notice('child ended ' + r.status);", yaml: 'failure_policy: hard\ncapabilities: [agents.spawn:child]\n' },
    ], { output: ['spawner'] });
    home.writeConfig({ agents: { parent: { model: 'mock', core: parent }, child: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'parent', text: 'go', onEvent });
    assert.equal(result.status, 'ok', result.error);
    assert.equal(result.content, 'spawned running');
    const tasks = events.flatMap((e) => (e.type === 'core' && e.event.type === 'core_task' ? [e.event.status] : []));
    assert.deepEqual(tasks, ['running', 'ok']);
    const transcript = readFileSync(join(home.dir, 'sessions/parent', `${result.sessionId}.jsonl`), 'utf8');
    assert.match(transcript, /"scope":"core_task","value":\{"taskId":"[0-9a-f]+","kind":"agent.spawn","agent":"child","caller":"output\/spawner","status":"running"/);
    assert.match(transcript, /"scope":"core_task","value":\{[^}]*"status":"ok"/);
  });

  it('options: unknown slot ids and tool names are errors; context reaches the child prompt; the result carries turn id, deliveries, tools; a child failure raises', async () => {
    const child = core(home, 'child', [{ phase: 'output', id: 'extra', body: "ctx.output.sendText('extra', { visible: false });" }], { output: ['base_output', 'extra'] });
    const ask = (opts: string) =>
      `try { const r = await ctx.agents.run('child', 'q', ${opts}); ctx.input.addContext('RESULT ' + JSON.stringify({ t: typeof r.turnId, d: r.deliveries, tools: r.tools, c: r.content.includes('CONTEXT FROM PARENT') }), { role: 'user' }); } catch (e: any) { ctx.input.addContext('ERROR ' + e.message, { role: 'user' }); }`;
    const parent = core(home, 'parent', [
      { phase: 'input', id: 'bad_slot', body: ask("{ inputSlots: ['ghost'] }"), yaml: 'capabilities: [agents.run:child]\n' },
      { phase: 'input', id: 'bad_tool', body: ask("{ tools: ['no_such_tool'] }"), yaml: 'capabilities: [agents.run:child]\n' },
      { phase: 'input', id: 'good', body: ask("{ outputSlots: 'all', context: 'CONTEXT FROM PARENT' }"), yaml: 'capabilities: [agents.run:child]\n' },
      { phase: 'input', id: 'failing', body: ask("{ inputSlots: 'all' }"), yaml: 'capabilities: [agents.run:broken]\n' },
    ], { input: ['bad_slot', 'bad_tool', 'good', 'failing', 'base_input'] });
    const broken = core(home, 'broken', [{ phase: 'input', id: 'boom', body: "throw new Error('child input broke');", yaml: 'failure_policy: hard\n' }], { input: ['boom', 'base_input'] });
    // `failing` asks the broken child
    const failing = join(parent, 'agent/input/failing/module.ts');
    writeFileSync(failing, readFileSync(failing, 'utf8').replace("ctx.agents.run('child'", "ctx.agents.run('broken'"));
    home.writeConfig({
      agents: {
        parent: { model: script(home, 'parent', [{ echo_prompt: true }]), core: parent },
        child: { model: script(home, 'child', [{ echo_prompt: true }]), core: child, tools: ['read_file'] },
        broken: { model: 'mock', core: broken },
      },
    });
    const pepe = await home.pepe({ workspace: home.dir });
    const result = await pepe.run({ agent: 'parent', text: 'hi' });
    assert.equal(result.status, 'ok', result.error);
    assert.match(result.content, /ERROR .*inputSlots names "ghost", which is not in the input pipeline/);
    assert.match(result.content, /ERROR .*tools names "no_such_tool", which the child agent does not have/);
    assert.match(result.content, /RESULT \{"t":"string","d":\[\{"text":"[^"]*","visible":true,"historyPolicy":"persist"\},\{"text":"extra","visible":false,"historyPolicy":"persist"\}\],"tools":\[\],"c":true\}/);
    assert.match(result.content, /ERROR child agent broken failed: input slot "boom" failed: child input broke/);
  });
});
