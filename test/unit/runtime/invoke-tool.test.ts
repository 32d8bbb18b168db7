import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolMessage } from '../../../src/core/messages.js';
import { script, ScriptedPrompter } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/** Writes a one-slot agent core whose input slot calls `bash` through ctx.tools.call. */
function coreCallingBash(dir: string, args: Record<string, unknown>): void {
  const slotDir = (phase: string, id: string) => join(dir, 'agent', phase, id);
  mkdirSync(slotDir('input', 'base_input'), { recursive: true });
  mkdirSync(slotDir('output', 'base_output'), { recursive: true });
  writeFileSync(
    join(slotDir('input', 'base_input'), 'module.ts'),
    `export async function process(ctx: any) {\n  const r = await ctx.tools.call('bash', ${JSON.stringify(args)});\n  ctx.input.addContext(ctx.input.rawText + ' / tool said: ' + r.content, { role: 'user' });\n}\n`,
  );
  writeFileSync(join(slotDir('input', 'base_input'), 'slot.yaml'), 'entrypoint: module:process\nfailure_policy: hard\ncapabilities: ["tool.call:bash"]\n');
  writeFileSync(join(slotDir('output', 'base_output'), 'module.ts'), 'export async function process(ctx: any) {\n  ctx.output.sendText(ctx.output.responseText);\n}\n');
  writeFileSync(join(slotDir('output', 'base_output'), 'slot.yaml'), 'entrypoint: module:process\nfailure_policy: hard\n');
  writeFileSync(join(dir, 'agent/pipelines.yaml'), 'schema_version: 1\nbootstrap: { serial: [] }\ninput: { serial: [base_input], parallel: [] }\noutput: { serial: [base_output], parallel: [] }\n');
}

/**
 * One tool invoker for every caller (issue 11): the built-in loop, an agent core's ctx.tools.call
 * and the replay of a parked approval each run a command in the directory the person approved.
 */
describe('one tool invoker: the command runs where the person approved it', function () {
  this.timeout(30_000);
  let home: TempHome;
  let ws: string;
  let sub: string;
  beforeEach(() => {
    home = new TempHome();
    ws = join(home.dir, 'ws');
    sub = join(ws, 'sub');
    mkdirSync(sub, { recursive: true });
  });
  afterEach(() => home.cleanup());

  const where = (dir: string) => readFileSync(join(dir, 'where.txt'), 'utf8').trim();
  const toolMessages = (messages: { role: string }[]) => messages.filter((m): m is ToolMessage => m.role === 'tool');
  const bashInSub = { command: 'pwd -P > where.txt', cwd: 'sub' };

  it('the built-in loop: the prompt shows the sub-directory and the command runs there', async () => {
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: bashInSub }] }, { text: 'done' }]) } } });
    const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
    const pepe = await home.pepe({ workspace: ws, prompter });
    const result = await pepe.run({ agent: 'a', text: 'go' });
    assert.equal(result.status, 'ok', result.error);
    assert.equal(prompter.requests.length, 1);
    assert.equal(prompter.requests[0]!.cwd, realpathSync(sub));
    assert.match(prompter.requests[0]!.summary, /sub/);
    assert.equal(where(sub), realpathSync(sub));
    assert.equal(existsSync(join(ws, 'where.txt')), false);
  });

  it("an agent core's ctx.tools.call: the prompt shows the sub-directory and the command runs there", async () => {
    const core = join(home.dir, 'cores/c');
    coreCallingBash(core, bashInSub);
    home.writeConfig({ agents: { a: { model: 'mock', core } } });
    const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
    const pepe = await home.pepe({ workspace: ws, prompter });
    const result = await pepe.run({ agent: 'a', text: 'hi' });
    assert.equal(result.status, 'ok', result.error);
    assert.equal(prompter.requests.length, 1, 'the barrier asked');
    assert.equal(prompter.requests[0]!.cwd, realpathSync(sub), 'the person is shown the directory the command runs in');
    assert.equal(where(sub), realpathSync(sub));
    assert.equal(existsSync(join(ws, 'where.txt')), false);
  });

  it("a parked call from an agent core is parked with its directory and, approved later, runs there", async () => {
    const core = join(home.dir, 'cores/c');
    coreCallingBash(core, bashInSub);
    home.writeConfig({ agents: { a: { model: 'mock', core } } });
    const pepe = await home.pepe({ workspace: ws });
    const first = await pepe.run({ agent: 'a', text: 'hi', personPresent: false });
    assert.equal(first.status, 'ok', first.error);
    assert.equal(existsSync(join(sub, 'where.txt')), false, 'not run without a person');
    const parked = await pepe.approvalList();
    assert.equal(parked.length, 1);
    assert.equal(parked[0]!.cwd, realpathSync(sub), 'parked with the directory the person will be shown');
    await pepe['pending'].approve(parked[0]!.id);
    const second = await pepe.run({ agent: 'a', text: 'again', sessionId: first.sessionId, personPresent: false });
    assert.equal(second.status, 'ok', second.error);
    assert.equal(where(sub), realpathSync(sub), 'the approved call ran in the approved directory');
    assert.equal(existsSync(join(ws, 'where.txt')), false, 'not in the workspace root');
  });

  it('a parked call from the built-in loop, approved later, runs in the approved directory', async () => {
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: bashInSub }] }, { text: 'parked' }, { echo_prompt: true }]) } } });
    const pepe = await home.pepe({ workspace: ws });
    const first = await pepe.run({ agent: 'a', text: 'go', personPresent: false });
    const [parked] = await pepe.approvalList();
    assert.equal(parked!.cwd, realpathSync(sub));
    await pepe['pending'].approve(parked!.id);
    const second = await pepe.run({ agent: 'a', text: 'and?', sessionId: first.sessionId, personPresent: false });
    assert.match(second.content, /approved the parked call .*exit status 0/s);
    assert.equal(where(sub), realpathSync(sub));
  });

  it('attack: the approved directory is swapped for a link elsewhere before the replay: refused, not run', async () => {
    const elsewhere = join(home.dir, 'elsewhere');
    mkdirSync(elsewhere);
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: bashInSub }] }, { text: 'parked' }, { echo_prompt: true }]) } } });
    const pepe = await home.pepe({ workspace: ws });
    const first = await pepe.run({ agent: 'a', text: 'go', personPresent: false });
    const [parked] = await pepe.approvalList();
    await pepe['pending'].approve(parked!.id);
    renameSync(sub, join(ws, 'old-sub'));
    symlinkSync(elsewhere, sub);
    const second = await pepe.run({ agent: 'a', text: 'and?', sessionId: first.sessionId, personPresent: false });
    assert.equal(existsSync(join(elsewhere, 'where.txt')), false, 'never ran behind the link');
    assert.match(second.content, /approved the parked call .*it was not run/s);
    assert.match(second.content, /changed since/);
  });

  it('attack: a parked write_file whose file is swapped for a link outside before the replay: refused, nothing written', async () => {
    const outside = join(home.dir, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'pwned' } }] }, { text: 'parked' }, { echo_prompt: true }]) } } });
    const pepe = await home.pepe({ workspace: ws });
    const first = await pepe.run({ agent: 'a', text: 'go', personPresent: false });
    const [parked] = await pepe.approvalList();
    assert.ok(parked, 'parked');
    await pepe['pending'].approve(parked.id);
    symlinkSync(outside, join(ws, 'out.txt'));
    const second = await pepe.run({ agent: 'a', text: 'and?', sessionId: first.sessionId, personPresent: false });
    assert.equal(readFileSync(outside, 'utf8'), 'precious\n', 'the file outside the workspace is untouched');
    assert.match(second.content, /approved the parked call .*it was not run/s);
  });

  it('a parked call replayed from another workspace runs where it was parked, never in the other one', async () => {
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: bashInSub }] }, { text: 'parked' }, { echo_prompt: true }]) } } });
    const pepe = await home.pepe({ workspace: ws });
    const first = await pepe.run({ agent: 'a', text: 'go', personPresent: false });
    const [parked] = await pepe.approvalList();
    await pepe['pending'].approve(parked!.id);
    const other = join(home.dir, 'other');
    mkdirSync(join(other, 'sub'), { recursive: true });
    const elsewhere = await home.pepe({ workspace: other });
    const second = await elsewhere.run({ agent: 'a', text: 'and?', sessionId: first.sessionId, personPresent: false });
    assert.equal(existsSync(join(other, 'sub', 'where.txt')), false, 'it ran in the other workspace');
    assert.equal(existsSync(join(sub, 'where.txt')), true, 'it ran where it was parked');
    assert.match(second.content, /approved the parked call .*it ran/s);
  });

  it('invalid arguments, an unknown tool and a refusal each come back as a tool error', async () => {
    const calls = [
      { name: 'bash', arguments: { command: 42 } },
      { name: 'no_such_tool', arguments: {} },
    ];
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: calls }, { text: 'ok' }]) } } });
    const pepe = await home.pepe({ workspace: ws });
    const result = await pepe.run({ agent: 'a', text: 'go' });
    const [invalid, unknown] = toolMessages(result.messages);
    assert.match(invalid!.content, /invalid arguments for bash: command/);
    assert.match(unknown!.content, /unknown tool "no_such_tool"/);
  });
});

describe('one tool invoker: the network and the sandbox status', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
    mkdirSync(join(home.dir, 'ws'));
  });
  afterEach(() => home.cleanup());

  /** A surface that records how the built-in sandbox was asked to run each command. */
  const recordingSurface = () => {
    const seen: { argv: string[]; network: boolean | undefined }[] = [];
    return {
      seen,
      surface: { run: (_agent: string | null, _program: string, argv: string[], opts: { network?: boolean }, direct: (o: never) => Promise<never>) => (seen.push({ argv, network: opts.network }), direct(opts as never)) },
    };
  };

  it('a replayed call gets the network only when the person approved it with its network risk shown', async () => {
    const calls = [
      { name: 'bash', arguments: { command: 'curl -s http://127.0.0.1:9/ || true' } },
      { name: 'bash', arguments: { command: 'echo quiet > quiet.txt' } },
    ];
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: calls }, { text: 'parked' }, { echo_prompt: true }]) } } });
    const { seen, surface } = recordingSurface();
    const pepe = await home.pepe({ workspace: join(home.dir, 'ws'), sandboxSurface: surface as never });
    const first = await pepe.run({ agent: 'a', text: 'go', personPresent: false });
    const parked = await pepe.approvalList();
    assert.equal(parked.length, 2);
    assert.ok(parked.find((p) => JSON.stringify(p.args).includes('curl'))!.riskHints!.some((h) => h.kind === 'network'), 'the person is shown the network risk');
    for (const p of parked) await pepe['pending'].approve(p.id);
    await pepe.run({ agent: 'a', text: 'and?', sessionId: first.sessionId, personPresent: false });
    const curl = seen.find((s) => s.argv.join(' ').includes('curl'));
    const echo = seen.find((s) => s.argv.join(' ').includes('echo quiet'));
    assert.equal(curl?.network, true);
    assert.equal(echo?.network, false);
  });

  it('a live call gets the network only when the person allowed it with its network risk shown', async () => {
    const calls = [
      { name: 'bash', arguments: { command: 'curl -s http://127.0.0.1:9/ || true' } },
      { name: 'bash', arguments: { command: 'echo quiet' } },
    ];
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: calls }, { text: 'done' }]) } } });
    const { seen, surface } = recordingSurface();
    const prompter = new ScriptedPrompter([{ kind: 'allow_once' }, { kind: 'allow_once' }]);
    const pepe = await home.pepe({ workspace: join(home.dir, 'ws'), sandboxSurface: surface as never, prompter });
    await pepe.run({ agent: 'a', text: 'go' });
    assert.ok(prompter.requests[0]!.riskHints.some((h) => h.kind === 'network'), 'the network risk was shown');
    assert.equal(seen.find((x) => x.argv.join(' ').includes('curl'))?.network, true);
    assert.equal(seen.find((x) => x.argv.join(' ').includes('echo quiet'))?.network, false);
  });

  it("the sandbox status the invoker gives the barrier: the built-in's own, or confined when a plugin occupies the slot", async () => {
    home.writePlugin('jail.mjs', "export const name = () => 'jail'; export const slot = () => 'sandbox'; export function run() { return { output: 'jailed', exitStatus: 0 }; }");
    home.writeConfig({ agents: { a: { model: 'mock' }, b: { model: 'mock', slots: { sandbox: 'jail' } } } });
    const pepe = await home.pepe({ workspace: join(home.dir, 'ws') });
    const builtin = await pepe['builtins'].sandbox.status();
    assert.deepEqual(await pepe['slots'].sandboxConfinement('a'), builtin.confined ? { confined: true } : { confined: false, reason: builtin.reason });
    assert.deepEqual(await pepe['slots'].sandboxConfinement('b'), { confined: true });
  });
});
