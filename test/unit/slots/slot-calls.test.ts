import assert from 'node:assert/strict';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../../../src/core/messages.js';
import { SUMMARY_TAG } from '../../../src/core/runtime/compaction.js';
import { HarnessFailedError } from '../../../src/core/slots/slot-service.js';
import { collectEvents } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/**
 * The slot service owns the built-ins and tells the surface about fallbacks itself; `pepe slot
 * test` runs exactly what a turn runs; the harness answers inside the guard (issue 11).
 */
describe('slot calls as the runtime makes them', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('slot test compaction summarises with the built-in the way a turn does (mock model)', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const answer = await pepe.slotTest('compaction', { agent: 'a' });
    assert.equal(answer.answeredBy, 'builtin');
    const messages = answer.result as Message[];
    assert.ok(messages.length < 31, `condensed: ${messages.length} messages`);
    assert.equal(messages[0]!.role, 'system', 'the system prompt is kept verbatim');
    assert.ok(messages.some((m) => m.content.includes(`<${SUMMARY_TAG}`)), 'the middle was summarised by the model');
    assert.equal(messages.at(-1)!.content, 'answer 15', 'the tail is kept verbatim');
  });

  it('slot test sandbox runs in the workspace, not the current directory', async () => {
    const ws = join(home.dir, 'ws');
    mkdirSync(ws);
    home.writeConfig({});
    const pepe = await home.pepe({ workspace: ws });
    const answer = await pepe.slotTest('sandbox', { command: ['pwd', '-P'] });
    const result = answer.result as { output: string; exitStatus: number };
    assert.equal(result.exitStatus, 0, result.output);
    assert.equal(result.output.trim(), realpathSync(ws));
    assert.notEqual(result.output.trim(), realpathSync(process.cwd()));
  });

  it('a memory plugin that throws: the service answers with its built-in and emits the fallback event itself', async () => {
    home.writePlugin('bad.mjs', "export const name = () => 'bad'; export const slot = () => 'memory'; export function search() { throw new Error('nope'); }");
    home.writeConfig({ slots: { memory: 'bad' } });
    home.writeAgentFile('a', 'MEMORY.md', '- the deploy window is Tuesday\n');
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const answer = await pepe['slots'].memorySearch('a', 'deploy', { limit: 5 }, { emit: onEvent, path: ['a'] });
    assert.equal(answer.answeredBy, 'builtin');
    assert.match(answer.result[0]!.entry, /Tuesday/);
    assert.deepEqual(
      events.map((e) => e.type === 'slot_fallback' && [e.slot, e.occupant, e.outcome, e.path]),
      [['memory', 'bad', 'builtin', ['a']]],
    );
  });

  it('slot status counts fallbacks again only when the log changed', async () => {
    home.writePlugin('bad.mjs', "export const name = () => 'bad'; export const slot = () => 'memory'; export function search() { throw new Error('nope'); }");
    home.writeConfig({ slots: { memory: 'bad' } });
    const pepe = await home.pepe({ workspace: home.dir });
    const count = async () => (await pepe.slotList()).find((r) => r.slot === 'memory')!.fallbacks.count;
    assert.equal(await count(), 0);
    await pepe['slots'].memorySearch('a', 'x', {});
    assert.equal(await count(), 1);
    assert.equal(await count(), 1, 'not counted twice');
    await pepe['slots'].memorySearch('a', 'y', {});
    assert.equal(await count(), 2);
  });

  it('one query gives every slot with its project and agent overrides, each resolved for its scope', async () => {
    home.writePlugin('mem.mjs', "export const name = () => 'mem'; export const slot = () => 'memory'; export function search() { return []; }");
    home.writeConfig({ agents: { a: { model: 'mock', slots: { memory: 'mem' } }, b: { model: 'mock', project: 'p' } }, projects: { p: { default_slots: { memory: 'ghost' } } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const memory = (await pepe.slotOverview()).find((r) => r.slot === 'memory')!;
    assert.equal(memory.occupant, 'builtin');
    assert.deepEqual(
      memory.overrides.map((o) => [o.scope, o.name, o.status.occupant, o.status.status]),
      [
        ['project', 'p', 'builtin', 'default-instead'],
        ['agent', 'a', 'mem', 'ok'],
      ],
    );
    assert.deepEqual((await pepe.slotOverview()).find((r) => r.slot === 'web_search')!.overrides, []);
  });

  it('a harness whose result breaks the contract fails the turn through the guard (policy "error"), told as an event', async () => {
    home.writePlugin('shapeless.mjs', "export const name = () => 'shapeless'; export const slot = () => 'harness'; export async function run() { return { content: 42 }; }");
    home.writeConfig({ agents: { a: { model: 'mock', slots: { harness: 'shapeless' } } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'hi', onEvent });
    assert.equal(result.status, 'error');
    assert.match(result.error!, /harness "shapeless" failed \(malformed\)/);
    assert.ok(events.some((e) => e.type === 'slot_fallback' && e.slot === 'harness' && e.outcome === 'error'), 'the surface was told');
    assert.ok(!events.some((e) => e.type === 'assistant_message'), 'the built-in loop did not run instead');
    const records = pepe['log'].readAll().filter((r) => r.kind === 'slot_fallback');
    assert.equal(records.length, 1);
  });

  it('a harness that never answers is ended at its deadline', async () => {
    home.writePlugin('stuck.mjs', "export const name = () => 'stuck'; export const slot = () => 'harness'; export function run() { return new Promise(() => {}); }");
    home.writeConfig({ agents: { a: { model: 'mock', slots: { harness: 'stuck' } } }, slot_deadlines_ms: { harness: 300 } });
    const pepe = await home.pepe({ workspace: home.dir });
    const started = performance.now();
    const result = await pepe.run({ agent: 'a', text: 'hi' });
    assert.ok(performance.now() - started < 10_000);
    assert.equal(result.status, 'error');
    assert.match(result.error!, /timeout/);
  });

  it('a configured harness that is missing fails the turn through the guard', async () => {
    home.writeConfig({ agents: { a: { model: 'mock', slots: { harness: 'ghost' } } } });
    const pepe = await home.pepe({ workspace: home.dir });
    await assert.rejects(pepe['slots'].runHarness('a', {}, [], {}), HarnessFailedError);
  });
});
