import assert from 'node:assert/strict';
import { capabilityProblem, grants } from '../../../src/core/cores/capabilities.js';
import { checkCore, checkCoreReport, loadCore } from '../../../src/core/cores/load-core.js';
import { formatProblem, type Problem } from '../../../src/core/cores/problems.js';
import { runInput, runOutput } from '../../../src/core/cores/runner.js';
import { cleanup, FakeHost, pipelines, scaffolded, slot, turnArgs, write } from './helpers.js';

const lines = (problems: Problem[], base: string) => problems.map((p) => formatProblem(p, base));

describe('agent cores: manifests and capabilities as upstream writes them', () => {
  afterEach(cleanup);

  it('accepts upstream capability names and forms', () => {
    for (const cap of [
      'network.fetch',
      'terminal.exec',
      'schedule.manage',
      'task.control',
      'session.read',
      'mcp.connect:docs',
      'mcp.call:*',
      'secret.bind:GITHUB_TOKEN',
      'state.session.read:self_learning_skills.counter',
      'state.session.write:self_learning_skills.counter',
      'state.core.write:prefs',
      'skill.activate:conversation_style',
      'agents.run:*',
      'tool.call:evolve_core',
    ]) {
      assert.equal(capabilityProblem(cap), null, cap);
    }
  });

  it('secret.bind:* is accepted, as upstream, and grants nothing: the core loads and can bind no secret with it', async () => {
    assert.equal(capabilityProblem('secret.bind:*'), null);
    assert.equal(grants(['secret.bind:*'], 'secret.bind:X'), false);
    assert.equal(grants(['secret.bind:*'], 'secret.bind:*'), false, 'not even itself');
    assert.equal(grants(['secret.bind:*', 'secret.bind:X'], 'secret.bind:X'), true);
    const dir = scaffolded();
    slot(dir, 'input', 'binder', {
      manifest: { capabilities: '[secret.bind:*]' },
      module: "export function process(ctx: any) { ctx.input.addContext(String([ctx.capability.can('secret.bind:*'), ctx.capability.can('secret.bind:GITHUB_TOKEN')]), { role: 'user' }); }\n",
    });
    slot(dir, 'input', 'requirer', {
      manifest: { capabilities: '[secret.bind:*]' },
      module: "export function process(ctx: any) { ctx.capability.require('secret.bind:*'); }\n",
    });
    pipelines(dir, { input: ['binder', 'requirer', 'base_input'] });
    assert.deepEqual(checkCore(dir), [], 'it loads: no problem at load');
    const out = await runInput(loadCore(dir), new FakeHost(), turnArgs());
    assert.ok(out.context.some((c) => c.text === 'false,false'), JSON.stringify(out.context));
    assert.match(out.failures[0]!.message, /secret\.bind:\* grants nothing: name the one environment variable/);
  });

  it('an unknown name gets a "did you mean"', () => {
    assert.match(capabilityProblem('netwrk.fetch')!, /did you mean "network\.fetch"\?/);
    assert.match(capabilityProblem('tools.call:bash')!, /did you mean "tool\.call:bash"\?/);
    assert.match(capabilityProblem('state.sesion.read')!, /did you mean "state\.session\.read"\?/);
  });

  it('grants: a key grant covers its key only; a scope grant every key; write covers read; old "network" is network.fetch', () => {
    const keyed = ['state.session.write:counter'];
    assert.equal(grants(keyed, 'state.session.write:counter'), true);
    assert.equal(grants(keyed, 'state.session.read:counter'), true);
    assert.equal(grants(keyed, 'state.session.write:other'), false);
    assert.equal(grants(keyed, 'state.session.read'), false);
    assert.equal(grants(['state.core.read'], 'state.core.read:any'), true);
    assert.equal(grants(['network'], 'network.fetch'), true);
    assert.equal(grants(['network.fetch'], 'network'), true);
    assert.equal(grants(['secret.bind:*'], 'secret.bind:X'), false);
  });

  it('the advice of ctx.capability.require never contradicts the checker', async () => {
    const dir = scaffolded();
    slot(dir, 'input', 'fetcher', {
      module: "export function process(ctx: any) { ctx.capability.require('network.fetch'); }\n",
    });
    slot(dir, 'input', 'typo', {
      module: "export function process(ctx: any) { ctx.capability.require('netwrk.fetch'); }\n",
    });
    pipelines(dir, { input: ['fetcher', 'typo', 'base_input'] });
    const out = await runInput(loadCore(dir), new FakeHost(), turnArgs());
    const [fetcher, typo] = out.failures;
    assert.match(fetcher!.message, /needs the capability "network\.fetch": add it to "capabilities:"/);
    // Doing what the advice says passes the checker.
    write(dir, 'agent/input/fetcher/slot.yaml', 'entrypoint: module:process\ncapabilities: [network.fetch]\n');
    assert.deepEqual(checkCore(dir), []);
    // A name the checker rejects is never advised to be added.
    assert.doesNotMatch(typo!.message, /add it to/);
    assert.match(typo!.message, /did you mean "network\.fetch"/);
  });

  it('grants from the core agent.yaml: defaults and per slot path', async () => {
    const dir = scaffolded();
    write(dir, 'agent.yaml', 'schema_version: 1\nagent:\n  id: x\ncapabilities:\n  defaults:\n    network.fetch:\n      requires_approval: true\n  slots:\n    agent/output/keeper:\n      state.session.write: {}\n');
    slot(dir, 'output', 'keeper', {
      module: "export function process(ctx: any) { ctx.capability.require('network.fetch'); ctx.state.session.set('n', 1); ctx.output.sendText('kept'); }\n",
    });
    slot(dir, 'output', 'other', {
      module: "export function process(ctx: any) { ctx.state.session.set('n', 2); }\n",
    });
    pipelines(dir, { output: ['keeper', 'other'] });
    const host = new FakeHost();
    const out = await runOutput(loadCore(dir), host, { ...turnArgs(), responseText: 'r' });
    assert.equal(out.delivered, 'kept');
    assert.deepEqual(host.state.session, { n: 1 });
    assert.match(out.failures[0]!.message, /slot "other" needs the capability "state\.session\.write"/);
    write(dir, 'agent.yaml', 'capabilities:\n  defaults:\n    netwerk.fetch: {}\n');
    assert.match(lines(checkCore(dir), dir)[0]!, /^agent\.yaml:3:5: unknown capability "netwerk\.fetch"; did you mean "network\.fetch"/);
  });

  it('entrypoint defaults to module:process; an empty slot.yaml is a slot', () => {
    const dir = scaffolded();
    write(dir, 'agent/input/base_input/slot.yaml', 'description: no entrypoint\nfailure_policy: hard\n');
    write(dir, 'agent/output/base_output/slot.yaml', '');
    assert.deepEqual(checkCore(dir), []);
    assert.equal(loadCore(dir).slots.input.get('base_input')!.manifest.entrypoint, 'module:process');
  });

  it('a dotted module path maps to folders in the slot', async () => {
    const dir = scaffolded();
    write(dir, 'agent/input/dotted/slot.yaml', 'entrypoint: impl.main:process\n');
    write(dir, 'agent/input/dotted/impl/main.ts', "export function process(ctx: any) { ctx.input.addContext('dotted', { role: 'user' }); }\n");
    pipelines(dir, { input: ['dotted'] });
    assert.deepEqual(checkCore(dir), []);
    assert.equal((await runInput(loadCore(dir), new FakeHost(), turnArgs())).userText, 'dotted');
  });

  it('a slot id is unique across phases', () => {
    const dir = scaffolded();
    slot(dir, 'output', 'base_input', { module: 'export function process() {}\n' });
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 1);
    assert.match(out[0]!, /^agent\/output\/base_input\/slot\.yaml:1:1: slot id "base_input" is also an input slot/);
  });

  it('a Python module: Pepe runs JS/TS, and how to port', () => {
    const dir = scaffolded();
    write(dir, 'agent/input/py_slot/slot.yaml', 'entrypoint: module:process\n');
    write(dir, 'agent/input/py_slot/module.py', 'def process(ctx):\n    ctx.input.add_context("x")\n');
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 1);
    assert.match(out[0]!, /agent\/input\/py_slot\/module\.py is Python\. Pepe runs JavaScript\/TypeScript slot modules/);
    assert.match(out[0]!, /add_context → ctx\.input\.addContext/);
  });

  it('a folder without slot.yaml is skipped with a note, not an error', () => {
    const dir = scaffolded();
    write(dir, 'agent/output/tts_gemini/config.yaml', 'voice: x\n');
    const report = checkCoreReport(dir);
    assert.deepEqual(report.problems, []);
    assert.equal(report.notes.length, 1);
    assert.match(report.notes[0]!.message, /skipped output\/tts_gemini\/: no slot\.yaml/);
  });
});
