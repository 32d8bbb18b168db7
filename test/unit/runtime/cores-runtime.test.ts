import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectEvents, script, ScriptedPrompter } from '../helpers/agents.js';
import { ensureBuilt, pepeCli, ROOT } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

const FIXTURE = join(ROOT, 'test/fixtures/cores/acceptance');

/** Writes one slot (module.ts + slot.yaml) into a core folder. */
function slot(core: string, phase: string, id: string, body: string, yaml = 'entrypoint: module:process\nfailure_policy: soft\n'): void {
  const dir = join(core, 'agent', phase, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'module.ts'), `export async function process(ctx: any) {\n${body}\n}\n`);
  writeFileSync(join(dir, 'slot.yaml'), yaml);
}

describe('agent cores in the turn loop (spec 7)', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const acceptanceCore = () => {
    const dir = join(home.dir, 'cores/acceptance');
    cpSync(FIXTURE, dir, { recursive: true });
    return dir;
  };

  it('input context and bootstrap reach the prompt; a soft parallel slot fails and the turn goes on; the output slot replaces the answer', async () => {
    const core = acceptanceCore();
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ echo_prompt: true }, { echo_prompt: true }]), core } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const first = await pepe.run({ agent: 'a', text: 'hello core', onEvent });
    assert.equal(first.status, 'ok', first.error);
    assert.match(first.content, /SYSTEM: SYSTEM NOTE: BE BRIEF\./, 'the input slot added system context (the output slot shouts it)');
    assert.match(first.content, /BOOTSTRAP RULE: ANSWER AS THE ACCEPTANCE AGENT\./);
    assert.doesNotMatch(first.content, /SNEAKY/);
    assert.ok(events.some((e) => e.type === 'core' && e.event.type === 'core_slot_failed' && e.event.slotId === 'sneaky'), 'the parallel slot failed softly');
    const second = await pepe.run({ agent: 'a', text: 'again', sessionId: first.sessionId });
    assert.equal(second.messages.filter((m) => m.role === 'system' && m.content.includes('BOOTSTRAP RULE')).length, 1, 'bootstrap context once in the prompt');
    const transcript = readFileSync(join(home.dir, 'sessions/a', `${first.sessionId}.jsonl`), 'utf8');
    assert.equal((transcript.match(/"type":"bootstrap"/g) ?? []).length, 1, 'bootstrap ran once per session');
    const written = transcript.trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'message').map((l) => l.message);
    assert.ok(!written.some((m) => m.role === 'system' && m.content.includes('SYSTEM NOTE')), 'a transient slot is never written');
    assert.match(transcript, /"runtime_record":true/, 'the raw answer is kept as a runtime record');
  });

  it('bootstrap context survives compaction', async () => {
    const core = acceptanceCore();
    const steps = Array.from({ length: 30 }, () => ({ text: 'fine '.repeat(80) }));
    home.writeConfig({
      agents: { a: { model: 'small', core } },
      models: { small: { provider: 'mock', model: script(home, 'a', steps).slice(5), context_window: 1500 } },
    });
    const pepe = await home.pepe({ workspace: home.dir });
    let sessionId: string | undefined;
    let compacted = false;
    let last;
    for (let i = 0; i < 10; i++) {
      const { onEvent, events } = collectEvents();
      last = await pepe.run({ agent: 'a', text: `turn ${i} ${'w'.repeat(200)}`, sessionId, onEvent });
      sessionId = last.sessionId;
      compacted ||= events.some((e) => e.type === 'compaction');
    }
    assert.ok(compacted, 'the conversation was compacted');
    assert.ok(last!.messages.some((m) => m.role === 'system' && m.content.includes('BOOTSTRAP RULE')), 'bootstrap context is still in the prompt');
  });

  it('a hard parallel slot that tries to add context fails the turn with its error', async () => {
    const core = acceptanceCore();
    writeFileSync(join(core, 'agent/input/sneaky/slot.yaml'), 'entrypoint: module:process\nfailure_policy: hard\n');
    home.writeConfig({ agents: { a: { model: 'mock', core } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const result = await pepe.run({ agent: 'a', text: 'hi' });
    assert.equal(result.status, 'error');
    assert.match(result.error ?? '', /sneaky/);
  });

  it('with no output slot sending, the response stays only in the runtime records', async () => {
    const core = acceptanceCore();
    writeFileSync(join(core, 'agent/pipelines.yaml'), 'schema_version: 1\nbootstrap: { serial: [] }\ninput: { serial: [base_input], parallel: [] }\noutput: { serial: [], parallel: [] }\n');
    home.writeConfig({ agents: { a: { model: 'mock', core } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const result = await pepe.run({ agent: 'a', text: 'quiet please' });
    assert.equal(result.status, 'ok');
    assert.equal(result.content, '');
    const transcript = readFileSync(join(home.dir, 'sessions/a', `${result.sessionId}.jsonl`), 'utf8');
    assert.match(transcript, /"content":"You said: quiet please","runtime_record":true/);
  });

  it('ctx.agents.run with default options runs only the child base pipeline and no bootstrap; tools "none" hides every tool', async () => {
    const parent = join(home.dir, 'cores/parent');
    slot(parent, 'input', 'base_input', "ctx.input.addContext(ctx.input.rawText, { role: 'user' });", 'entrypoint: module:process\nfailure_policy: hard\n');
    slot(parent, 'input', 'ask_child', "const r = await ctx.agents.run('child', 'child question', { tools: 'none' }); ctx.input.addContext('CHILD SAID: ' + r.content, { role: 'system' });", 'entrypoint: module:process\nfailure_policy: hard\ncapabilities: ["agents.run:child"]\n');
    slot(parent, 'output', 'base_output', 'ctx.output.sendText(ctx.output.responseText);', 'entrypoint: module:process\nfailure_policy: hard\n');
    writeFileSync(join(parent, 'agent/pipelines.yaml'), 'schema_version: 1\nbootstrap: { serial: [] }\ninput: { serial: [ask_child, base_input], parallel: [] }\noutput: { serial: [base_output], parallel: [] }\n');
    const child = acceptanceCore();
    home.writeConfig({
      agents: {
        parent: { model: script(home, 'parent', [{ echo_prompt: true }]), core: parent },
        child: { model: script(home, 'child', [{ echo_prompt: true }]), core: child },
      },
    });
    const pepe = await home.pepe({ workspace: home.dir });
    const result = await pepe.run({ agent: 'parent', text: 'hi' });
    assert.equal(result.status, 'ok', result.error);
    const childSaid = /CHILD SAID: ([\s\S]*?)\nuser: hi/.exec(result.content)?.[1] ?? '';
    assert.match(childSaid, /user: child question/);
    assert.doesNotMatch(childSaid, /BOOTSTRAP RULE/, 'no bootstrap by default');
    assert.doesNotMatch(childSaid, /SYSTEM NOTE/, "only base_input: the child's system_note did not run");
    assert.doesNotMatch(childSaid, /[A-Z]{5} [A-Z]{5}/, "only base_output: the child's shout slot did not run");
  });

  it('ctx.tools.call("bash") goes through the permission barrier', async () => {
    const core = join(home.dir, 'cores/tooling');
    slot(core, 'input', 'base_input', "const r = await ctx.tools.call('bash', { command: 'echo from-core > core.txt' }); ctx.input.addContext(ctx.input.rawText + ' / tool said: ' + r.content, { role: 'user' });", 'entrypoint: module:process\nfailure_policy: hard\ncapabilities: ["tool.call:bash"]\n');
    slot(core, 'output', 'base_output', 'ctx.output.sendText(ctx.output.responseText);', 'entrypoint: module:process\nfailure_policy: hard\n');
    writeFileSync(join(core, 'agent/pipelines.yaml'), 'schema_version: 1\nbootstrap: { serial: [] }\ninput: { serial: [base_input], parallel: [] }\noutput: { serial: [base_output], parallel: [] }\n');
    home.writeConfig({ agents: { a: { model: 'mock', core } } });
    const prompter = new ScriptedPrompter([{ kind: 'deny', reason: 'not from a core' }]);
    const pepe = await home.pepe({ workspace: home.dir, prompter });
    const result = await pepe.run({ agent: 'a', text: 'hi' });
    assert.equal(prompter.requests.length, 1, 'the barrier asked');
    assert.equal(prompter.requests[0]!.tool, 'bash');
    assert.match(result.content, /not from a core/);
  });

  it("what came with the text reaches input slots as ctx.input.attachments (kind, label, size) and the surface's metadata as ctx.turn.metadata", async () => {
    const core = join(home.dir, 'cores/attached');
    slot(core, 'input', 'base_input', "ctx.input.addContext('ATTACHED ' + JSON.stringify(ctx.input.attachments) + ' META ' + JSON.stringify(ctx.turn.metadata) + ' / ' + ctx.input.rawText, { role: 'user' });", 'entrypoint: module:process\nfailure_policy: hard\n');
    slot(core, 'output', 'base_output', 'ctx.output.sendText(ctx.output.responseText);', 'entrypoint: module:process\nfailure_policy: hard\n');
    writeFileSync(join(core, 'agent/pipelines.yaml'), 'schema_version: 1\nbootstrap: { serial: [] }\ninput: { serial: [base_input], parallel: [] }\noutput: { serial: [base_output], parallel: [] }\n');
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ echo_prompt: true }]), core } } });
    const pepe = await home.pepe({ workspace: home.workspace });
    const result = await pepe.run({ agent: 'a', text: 'look', attachments: [{ kind: 'file', label: 'notes.md', content: 'line one' }], metadata: { channel: 'cli' } });
    assert.equal(result.status, 'ok', result.error);
    assert.match(result.content, /META \{"channel":"cli"\}/, 'the surface\'s turn metadata reaches ctx.turn.metadata');
    assert.match(result.content, /ATTACHED \[\{"kind":"file","label":"notes\.md","chars":8\}\]/);
    assert.match(result.content, /line one/, 'the attached content is in the text the slots and the model see');
  });

  it('in an untrusted workspace only base_input/base_output run, and the turn says why', async () => {
    const core = acceptanceCore();
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ echo_prompt: true }]), core } } });
    const pepe = await home.pepe({ workspace: home.dir, trusted: false });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'hi', onEvent });
    assert.equal(result.status, 'ok', result.error);
    assert.doesNotMatch(result.content, /SYSTEM NOTE|BOOTSTRAP RULE/);
    assert.match(result.content, /user: hi/, 'not shouted: the base output delivered it');
    assert.ok(events.some((e) => e.type === 'core' && (e.event.type === 'core_restricted' || e.event.type === 'core_notice')), 'the restriction is reported');
  });

  describe('pepe init', function () {
    before(ensureBuilt);

    it('scaffolds a core that passes --check and runs through the pipeline with --provider fake; a broken manifest exits 2 with file:line', async () => {
      const dir = join(home.dir, 'mycore');
      let r = await pepeCli(home.dir, ['init', dir]);
      assert.equal(r.exitCode, 0, r.stderr);
      r = await pepeCli(home.dir, ['init', '--check', dir]);
      assert.equal(r.exitCode, 0, r.stdout + r.stderr);
      home.writeConfig({ agents: { a: { core: dir } } });
      r = await pepeCli(home.dir, ['run', 'a', 'through the pipeline', '--provider', 'fake']);
      assert.equal(r.exitCode, 0, r.stderr);
      assert.match(r.stdout, /You said: through the pipeline/);
      writeFileSync(join(dir, 'agent/input/base_input/slot.yaml'), 'entrypoint: module:process\ncolour: blue\n');
      writeFileSync(join(dir, 'agent/pipelines.yaml'), 'schema_version: 2\nbootstrap: { serial: [] }\ninput: { serial: [base_input] }\noutput: { serial: [base_output] }\n');
      r = await pepeCli(home.dir, ['init', '--check', dir]);
      assert.equal(r.exitCode, 2);
      const all = r.stdout + r.stderr;
      assert.match(all, /slot\.yaml:2:1: .*colour/);
      assert.match(all, /pipelines\.yaml:1:\d+: .*schema_version/);
    });
  });
});
