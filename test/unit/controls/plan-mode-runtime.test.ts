import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolMessage } from '../../../src/core/messages.js';
import { collectEvents, script, ScriptedPrompter } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

const toolMessages = (messages: { role: string }[]) => messages.filter((m): m is ToolMessage => m.role === 'tool');

describe('plan mode in a real turn', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  // Failed against bfd1589: there was no plan mode, the pre-approved write_file and bash ran and
  // plan.txt / out.txt were written.
  it('refuses a pre-approved write and a pre-approved writing command without asking; reads and harmless commands run', async () => {
    writeFileSync(join(home.workspace, 'notes.md'), 'the notes\n');
    const model = script(home, 'a', [
      {
        tool_calls: [
          { name: 'read_file', arguments: { path: 'notes.md' } },
          { name: 'bash', arguments: { command: 'cat notes.md' } },
          { name: 'write_file', arguments: { path: 'plan.txt', content: 'x' } },
          { name: 'bash', arguments: { command: 'echo hi > out.txt' } },
          { name: 'edit_file', arguments: { path: 'notes.md', edits: [{ search: 'the', replace: 'THE' }] } },
        ],
      },
      { echo_prompt: true },
    ]);
    home.writeConfig({ agents: { a: { model, auto_approve: '*' } } });
    const prompter = new ScriptedPrompter([]);
    const pepe = await home.pepe({ workspace: home.workspace, prompter });
    const result = await pepe.run({ agent: 'a', text: 'make a plan', planMode: true });
    assert.equal(prompter.requests.length, 0, 'nobody was asked');
    assert.equal(existsSync(join(home.workspace, 'plan.txt')), false, 'write_file did not run');
    assert.equal(existsSync(join(home.workspace, 'out.txt')), false, 'the writing command did not run');
    const results = toolMessages(result.messages);
    assert.match(results[0]!.content, /the notes/);
    assert.match(results[1]!.content, /the notes/, 'a harmless command ran');
    for (const r of results.slice(2)) {
      assert.equal(r.is_error, true);
      assert.match(r.content, /^Plan mode is on/);
    }
    assert.match(result.content, /Plan mode is on/, 'the agent was told, in its system text, to answer with a plan');
  });

  // Failed against bfd1589: the routed callee ran its pre-approved write_file (callee.txt written).
  it('a routed call inherits plan mode', async () => {
    const caller = script(home, 'caller', [{ tool_calls: [{ name: 'send_to_agent', arguments: { to: 'callee', message: 'write it' } }] }, { text: 'done' }]);
    const callee = script(home, 'callee', [{ tool_calls: [{ name: 'write_file', arguments: { path: 'callee.txt', content: 'x' } }] }, { text: 'could not' }]);
    home.writeConfig({ agents: { caller: { model: caller, can_message: ['callee'] }, callee: { model: callee, auto_approve: '*' } } });
    const pepe = await home.pepe({ workspace: home.workspace, prompter: new ScriptedPrompter([]) });
    const { onEvent, events } = collectEvents();
    await pepe.run({ agent: 'caller', text: 'go', planMode: true, onEvent });
    assert.equal(existsSync(join(home.workspace, 'callee.txt')), false);
    const refused = events.find((e) => e.type === 'tool_result' && e.name === 'write_file');
    assert.ok(refused?.type === 'tool_result' && /^Plan mode is on/.test(refused.content), 'the callee was refused by plan mode');
  });

  it('an agent in plan mode by default (plan_mode: true) refuses; an explicit planMode: false runs normally', async () => {
    const steps = [{ tool_calls: [{ name: 'write_file', arguments: { path: 'w.txt', content: 'x' } }] }, { text: 'ok' }];
    home.writeConfig({ agents: { a: { model: script(home, 'a', steps), auto_approve: '*', plan_mode: true }, b: { model: script(home, 'b', steps), auto_approve: '*', plan_mode: true } } });
    const pepe = await home.pepe({ workspace: home.workspace, prompter: new ScriptedPrompter([]) });
    await pepe.run({ agent: 'a', text: 'go' });
    assert.equal(existsSync(join(home.workspace, 'w.txt')), false, 'the default put the conversation in plan mode');
    await pepe.run({ agent: 'b', text: 'go', planMode: false });
    assert.equal(existsSync(join(home.workspace, 'w.txt')), true, 'acting mode runs the pre-approved write');
  });
});
