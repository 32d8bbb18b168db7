import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkCore, checkCoreReport, coreStamp, loadCore } from '../../../src/core/cores/load-core.js';
import { CoreLoadError, formatProblem, type Problem } from '../../../src/core/cores/problems.js';
import { cleanup, pipelines, scaffolded, slot, tempDir, write } from './helpers.js';

const lines = (problems: Problem[], base: string) => problems.map((p) => formatProblem(p, base));

describe('agent cores: loading and checking', () => {
  afterEach(cleanup);

  it('a scaffolded core passes the check and loads', () => {
    const dir = scaffolded();
    assert.deepEqual(checkCore(dir), []);
    const core = loadCore(dir);
    assert.deepEqual(core.pipelines.input, { serial: ['base_input'], parallel: [] });
    assert.deepEqual(core.pipelines.output, { serial: ['base_output'], parallel: [] });
    assert.deepEqual([...core.slots.input.keys()].sort(), ['base_input', 'example_context']);
    assert.equal(core.restricted, null);
  });

  it('an unknown field in slot.yaml: file, line and field', () => {
    const dir = scaffolded();
    write(dir, 'agent/output/base_output/slot.yaml', 'entrypoint: module:process\ndescription: x\nretries: 3\n');
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 1);
    assert.match(out[0]!, /^agent\/output\/base_output\/slot\.yaml:3:1: unknown field "retries"/);
  });

  it('schema_version 2: pipelines.yaml with its line', () => {
    const dir = scaffolded();
    write(dir, 'agent/pipelines.yaml', 'schema_version: 2\ninput:\n  serial: [base_input]\n');
    assert.deepEqual(lines(checkCore(dir), dir), ['agent/pipelines.yaml:1:17: schema_version must be 1, got 2']);
  });

  it('an unknown phase', () => {
    const dir = scaffolded();
    write(dir, 'agent/pipelines.yaml', 'schema_version: 1\ninput:\n  serial: [base_input]\npostprocess:\n  serial: []\n');
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 1);
    assert.match(out[0]!, /^agent\/pipelines\.yaml:4:1: unknown phase "postprocess"/);
  });

  it('a parallel group under bootstrap', () => {
    const dir = scaffolded();
    write(dir, 'agent/pipelines.yaml', 'schema_version: 1\nbootstrap:\n  serial: []\n  parallel: []\n');
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 1);
    assert.match(out[0]!, /^agent\/pipelines\.yaml:4:3: bootstrap supports serial only/);
  });

  it('an unknown key under a phase', () => {
    const dir = scaffolded();
    write(dir, 'agent/pipelines.yaml', 'schema_version: 1\ninput:\n  serial: [base_input]\n  sequential: []\n');
    assert.match(lines(checkCore(dir), dir)[0]!, /^agent\/pipelines\.yaml:4:3: unknown key "sequential" under input/);
  });

  it('an unknown slot id, and a slot of another phase', () => {
    const dir = scaffolded();
    write(dir, 'agent/pipelines.yaml', 'schema_version: 1\ninput:\n  serial:\n    - base_input\n    - translate\noutput:\n  serial: [base_input]\n');
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 2);
    assert.match(out[0]!, /^agent\/pipelines\.yaml:5:7: unknown input slot "translate"/);
    assert.match(out[1]!, /^agent\/pipelines\.yaml:7:12: unknown output slot "base_input"; "base_input" is a input slot/);
  });

  it('a duplicate id in one pipeline (serial and parallel count together)', () => {
    const dir = scaffolded();
    write(dir, 'agent/pipelines.yaml', 'schema_version: 1\ninput:\n  serial: [base_input]\n  parallel:\n    - example_context\n    - base_input\n');
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 1);
    assert.match(out[0]!, /^agent\/pipelines\.yaml:6:7: slot "base_input" appears twice in the input pipeline \(already in input\.serial at line 3\)/);
  });

  it('an entrypoint whose export does not exist: at the entrypoint line of slot.yaml', () => {
    const dir = scaffolded();
    write(dir, 'agent/input/base_input/slot.yaml', 'description: seed\nentrypoint: module:handle\n');
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 1);
    assert.match(out[0]!, /^agent\/input\/base_input\/slot\.yaml:2:13: entrypoint "module:handle": module\.ts has no export "handle" \(it exports: process\)/);
  });

  it('a missing entrypoint module, a missing slot.yaml, a missing pipelines.yaml', () => {
    const dir = scaffolded();
    write(dir, 'agent/input/base_input/slot.yaml', 'entrypoint: main:process\n');
    write(dir, 'agent/output/loose/module.ts', 'export function process() {}\n');
    rmSync(join(dir, 'agent/pipelines.yaml'));
    const out = lines(checkCore(dir), dir);
    assert.deepEqual(out.length, 2);
    assert.match(out[0]!, /^agent\/input\/base_input\/slot\.yaml:1:13: entrypoint module "main" not found/);
    assert.match(out[1]!, /^agent\/pipelines\.yaml:1:1: missing pipelines\.yaml/);
    // A folder without slot.yaml is not a slot: skipped with a note, not an error (as upstream).
    const report = checkCoreReport(dir);
    assert.match(formatProblem(report.notes[0]!, dir), /^agent\/output\/loose:1:1: skipped output\/loose\/: no slot\.yaml/);
  });

  it('reports every problem at once, across files, sorted', () => {
    const dir = scaffolded();
    write(dir, 'agent/input/base_input/slot.yaml', 'entrypoint: module:nothere\nfailure_policy: loud\ncolour: red\n');
    write(dir, 'agent/output/base_output/slot.yaml', 'entrypoint: module:process\ncapabilities: [tools.call:bash, tool.call:bash]\ntimeout_seconds: -1\n');
    write(dir, 'agent/pipelines.yaml', 'schema_version: 2\nbootstrap:\n  parallel: [x]\ninput:\n  serial: [base_input, base_input, ghost]\nextra: {}\n');
    const out = lines(checkCore(dir), dir);
    assert.deepEqual(
      out.map((l) => l.replace(/: .*/, ':')),
      [
        'agent/input/base_input/slot.yaml:2:17:',
        'agent/input/base_input/slot.yaml:3:1:',
        'agent/output/base_output/slot.yaml:2:16:',
        'agent/output/base_output/slot.yaml:3:18:',
        'agent/pipelines.yaml:1:17:',
        'agent/pipelines.yaml:3:3:',
        'agent/pipelines.yaml:5:24:',
        'agent/pipelines.yaml:5:36:',
        'agent/pipelines.yaml:6:1:',
      ],
      out.join('\n'),
    );
    assert.throws(() => loadCore(dir), (e: unknown) => e instanceof CoreLoadError && e.problems.length === 9 && /9 problems/.test(e.message));
  });

  it('a YAML syntax error is a problem with its position', () => {
    const dir = scaffolded();
    write(dir, 'agent/pipelines.yaml', 'schema_version: 1\ninput:\n  serial: [base_input\n');
    const out = lines(checkCore(dir), dir);
    assert.ok(out.length >= 1);
    assert.match(out[0]!, /^agent\/pipelines\.yaml:\d+:\d+: YAML: /);
  });

  it('a module that does not compile is reported in the module file with its line', () => {
    const dir = scaffolded();
    write(dir, 'agent/input/base_input/module.ts', 'export function process(ctx: any) {\n  const x = ;\n}\n');
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 1);
    assert.match(out[0]!, /^agent\/input\/base_input\/module\.ts:2:\d+: cannot load module: /);
  });

  it('TypeScript slot modules import their siblings and agent/lib helpers (transpiled, relative to the slot)', async () => {
    const dir = scaffolded();
    write(dir, 'agent/lib/shout.ts', "import { suffix } from './suffix';\nexport const shout = (s: string): string => s.toUpperCase() + suffix;\n");
    write(dir, 'agent/lib/suffix.ts', "export const suffix: string = '!';\n");
    slot(dir, 'input', 'loud', {
      module: "import { shout } from '../../lib/shout';\nimport { twice } from './twice.js';\nexport function process(ctx: any): void { ctx.input.addContext(twice(shout(ctx.input.rawText)), { role: 'user' }); }\n",
    });
    write(dir, 'agent/input/loud/twice.ts', 'export const twice = (s: string) => `${s} ${s}`;\n');
    pipelines(dir, { input: ['loud'] });
    assert.deepEqual(checkCore(dir), []);
    const core = loadCore(dir);
    const added: string[] = [];
    await core.slots.input.get('loud')!.entry({ input: { rawText: 'hi', addContext: (t: string) => added.push(t) } } as never);
    assert.deepEqual(added, ['HI! HI!']);
  });

  it('relative imports are isolated per slot folder', () => {
    const dir = scaffolded();
    slot(dir, 'input', 'nosy', { module: "import { process as p } from '../base_input/module';\nexport const process = p;\n" });
    write(dir, 'agent/lib/bad.ts', "export * from '../input/base_input/module';\n");
    slot(dir, 'output', 'nosy2', { module: "export * from '../../lib/bad';\n" });
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 2, out.join('\n'));
    assert.match(out[0]!, /^agent\/input\/nosy\/module\.ts:1:1: cannot load module: agent\/input\/nosy\/module\.ts may not import "..\/base_input\/module".*isolated per slot folder/);
    assert.match(out[1]!, /^agent\/lib\/bad\.ts:1:1: cannot load module: agent\/lib\/bad\.ts may not import/);
  });

  it('.js and .mjs modules with ES module syntax load too', async () => {
    const dir = scaffolded();
    slot(dir, 'output', 'plain', { file: 'module.js', module: 'export function process(ctx) { ctx.output.sendText("js"); }\n' });
    slot(dir, 'output', 'esm', { file: 'module.mjs', module: "import { oneLine } from '../../lib/text.ts';\nexport async function process(ctx) { ctx.output.sendText(oneLine(' m  js ')); }\n" });
    pipelines(dir, { output: ['plain', 'esm'] });
    assert.deepEqual(checkCore(dir), []);
    const core = loadCore(dir);
    const sent: string[] = [];
    for (const id of ['plain', 'esm']) await core.slots.output.get(id)!.entry({ output: { sendText: (t: string) => sent.push(t) } } as never);
    assert.deepEqual(sent, ['js', 'm js']);
  });

  it('without loading modules (untrusted workspace) the check runs no code but still checks the files', () => {
    const dir = scaffolded();
    write(dir, 'agent/input/base_input/module.ts', "throw new Error('must not run');\n");
    assert.deepEqual(checkCore(dir, { loadModules: false }), []);
    assert.equal(checkCore(dir).length, 1);
  });

  it('a folder that is not a core says how to make one', () => {
    const dir = tempDir();
    const out = checkCore(dir);
    assert.equal(out.length, 1);
    assert.match(out[0]!.message, /pepe init/);
  });

  it('unknown capabilities are problems; named ones need a name', () => {
    const dir = scaffolded();
    write(dir, 'agent/input/base_input/slot.yaml', 'entrypoint: module:process\ncapabilities:\n  - fs.read\n  - tool.call\n  - tool.call:bash\n  - agents.run:*\n  - teleport\n');
    const out = lines(checkCore(dir), dir);
    assert.equal(out.length, 2, out.join('\n'));
    assert.match(out[0]!, /slot\.yaml:4:5: capability "tool.call" needs a name/);
    assert.match(out[1]!, /slot\.yaml:7:5: unknown capability "teleport"/);
  });

  it('coreStamp changes when a file of the core changes', () => {
    const dir = scaffolded();
    const before = coreStamp(dir);
    assert.equal(coreStamp(dir), before);
    write(dir, 'agent/input/base_input/module.ts', 'export function process(ctx: any) { ctx.input.addContext(ctx.input.rawText, { role: "user" }); }\n');
    assert.notEqual(coreStamp(dir), before);
    // agent.yaml grants capabilities, so it is part of the core too.
    const withoutGrants = coreStamp(dir);
    write(dir, 'agent.yaml', 'capabilities:\n  defaults:\n    network.fetch: {}\n');
    assert.notEqual(coreStamp(dir), withoutGrants);
  });
});
