import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnEvent } from '../../../src/core/events.js';
import { TurnShared } from '../../../src/core/runtime/turn-shared.js';
import { collectEvents, script, ScriptedPrompter, type Step } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

const send = (to: string, message: string): Step => ({ tool_calls: [{ name: 'send_to_agent', arguments: { to, message } }] });
const write = (path: string, content: string): Step => ({ tool_calls: [{ name: 'write_file', arguments: { path, content } }] });
/** The instruction files each agent of the chain was given at its start, by chain. */
const given = (events: TurnEvent[]) =>
  events.filter((e): e is Extract<TurnEvent, { type: 'instructions' }> => e.type === 'instructions').map((e) => `${e.path.join('>')}: ${e.files.map((f) => f.name).join(', ')}`);

describe('routing: the hops of one turn share discovery (issue 27)', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('every hop is still given the instruction files, each with its own event', async () => {
    const ws = join(home.dir, 'ws');
    mkdirSync(join(ws, '.git'), { recursive: true });
    writeFileSync(join(ws, 'AGENTS.md'), 'Be brief.');
    home.writeConfig({
      agents: {
        a0: { model: script(home, 'a0', [send('a1', 'hi'), { text: 'a0 done' }]), can_message: ['a1'] },
        a1: { model: script(home, 'a1', [send('a2', 'hi'), { text: 'a1 done' }]), can_message: ['a2'] },
        a2: { model: script(home, 'a2', [{ text: 'a2 done' }]) },
      },
    });
    const pepe = await home.pepe({ workspace: ws });
    const { onEvent, events } = collectEvents();
    const r = await pepe.run({ agent: 'a0', text: 'go', onEvent });
    assert.equal(r.status, 'ok');
    assert.deepEqual(given(events), ['a0: AGENTS.md', 'a0>a1: AGENTS.md', 'a0>a1>a2: AGENTS.md']);
  });

  it('a file the caller writes before it consults is found by the callee; a new turn finds what changed since', async () => {
    const ws = join(home.dir, 'ws');
    mkdirSync(join(ws, '.git'), { recursive: true });
    home.writeConfig({
      agents: {
        a0: { model: script(home, 'a0', [send('a1', 'first'), write('AGENTS.md', 'Be brief.'), send('a1', 'second'), { text: 'a0 done' }]), can_message: ['a1'], tools: ['write_file', 'send_to_agent'] },
        a1: { model: script(home, 'a1', [{ text: 'a1 done' }, { text: 'a1 done again' }]) },
      },
    });
    const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
    const pepe = await home.pepe({ workspace: ws, prompter });
    const { onEvent, events } = collectEvents();
    const r = await pepe.run({ agent: 'a0', text: 'go', onEvent });
    assert.equal(r.status, 'ok', r.error);
    assert.equal(prompter.requests.length, 1, 'the write was asked for');
    // a0's own event is the write bringing the file in; the first consultation came before it, the second after.
    assert.deepEqual(given(events), ['a0: AGENTS.md', 'a0>a1: AGENTS.md']);
    const next = collectEvents();
    home.writeConfig({ agents: { a1: { model: script(home, 'a1b', [{ text: 'hi' }]) } } });
    await pepe.reload();
    writeFileSync(join(ws, 'AGENTS.md'), 'Be kind.');
    await pepe.run({ agent: 'a1', text: 'again', onEvent: next.onEvent });
    assert.deepEqual(given(next.events), ['a1: AGENTS.md']);
  });

  it('a folder\'s AGENTS.md found missing while the agent reads is looked for again after a call that may change the workspace', async () => {
    const ws = join(home.dir, 'ws');
    mkdirSync(join(ws, '.git'), { recursive: true });
    mkdirSync(join(ws, 'pkg'));
    for (const f of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(ws, 'pkg', f), f);
    const read = (path: string): Step => ({ tool_calls: [{ name: 'read_file', arguments: { path } }] });
    home.writeConfig({
      agents: {
        a0: { model: script(home, 'a0', [read('pkg/a.txt'), read('pkg/b.txt'), write('notes.txt', 'x'), read('pkg/c.txt'), { text: 'done' }]), tools: ['read_file', 'write_file'] },
      },
    });
    // While the write in the root waits for its approval, pkg/AGENTS.md appears (a person, git pull…).
    const prompter = {
      interactive: true,
      async ask() {
        writeFileSync(join(ws, 'pkg', 'AGENTS.md'), 'Use tabs.');
        return { kind: 'allow_once' as const };
      },
    };
    const pepe = await home.pepe({ workspace: ws, prompter });
    const { onEvent, events } = collectEvents();
    const r = await pepe.run({ agent: 'a0', text: 'go', onEvent });
    assert.equal(r.status, 'ok', r.error);
    const results = events.filter((e): e is Extract<TurnEvent, { type: 'tool_result' }> => e.type === 'tool_result');
    assert.deepEqual(results.map((e) => /Use tabs\./.test(e.content)), [false, false, false, true], 'the read after the write does not bring pkg/AGENTS.md in');
  });

  it('TurnShared: reuses a finding until a change is signalled; a failure is not kept', async () => {
    const shared = new TurnShared();
    let made = 0;
    const make = async () => ++made;
    assert.equal(await shared.once('k', make), 1);
    assert.equal(await shared.once('k', make), 1);
    shared.changed();
    assert.equal(await shared.once('k', make), 2);
    await assert.rejects(shared.once('bad', async () => Promise.reject(new Error('no'))));
    assert.equal(await shared.once('bad', async () => 'ok'), 'ok');
  });
});
