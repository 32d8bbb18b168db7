import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessFailedError } from '../../../src/core/slots/slot-service.js';
import { misbehavingPlugin } from '../../fixtures/plugins/misbehaving.js';
import { TempHome } from '../helpers/home.js';

const examples = join(import.meta.dirname, '../../../docs/examples/plugins');

describe('slot service', () => {
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('resolution with all four levels set differently, end to end through real plugins', async () => {
    for (const n of ['agent_mem', 'project_mem', 'install_mem']) {
      home.writePlugin(`${n}.mjs`, `export const name = () => '${n}'; export const slot = () => 'memory';
        export function search(agent, q) { return [{ file: 'x', entry: '${n}:' + agent + ':' + q, score: 1, source: '${n}' }]; }`);
    }
    home.writeConfig({
      slots: { memory: 'install_mem' },
      projects: { acme: { default_slots: { memory: 'project_mem' } } },
      agents: { support: { project: 'acme', slots: { memory: 'agent_mem' } }, sales: { project: 'acme' }, solo: {}, plain: {} },
    });
    home.writeAgentFile('plain', 'MEMORY.md', 'likes pepe\n');
    const pepe = await home.pepe();
    const answered = async (agent: string) => (await pepe.slotTest('memory', { agent, query: 'pepe' })).answeredBy;
    assert.equal(await answered('support'), 'agent_mem');
    assert.equal(await answered('sales'), 'project_mem');
    assert.equal(await answered('solo'), 'install_mem');
    await pepe.slotClear('memory');
    assert.equal(await answered('plain'), 'builtin');
    const hit = (await pepe.slotTest('memory', { agent: 'plain', query: 'PEPE' })).result as { entry: string }[];
    assert.deepEqual(hit.map((h) => h.entry), ['likes pepe']);
  });

  it('a plugin killed at its deadline is restarted and answers the next call', async () => {
    home.writePlugin('moody.mjs', `export const name = () => 'moody'; export const slot = () => 'memory';
      export function search(agent, q) { if (q === 'loop') for (;;) {} return [{ file: 'f', entry: q, score: null, source: 'moody' }]; }`);
    home.writeConfig({ slots: { memory: 'moody' }, slot_deadlines_ms: { memory: 400 } });
    const pepe = await home.pepe();
    const first = await pepe.slotTest('memory', { query: 'loop' });
    assert.equal(first.fallback?.reason, 'timeout');
    const second = await pepe.slotTest('memory', { query: 'hello' });
    assert.equal(second.answeredBy, 'moody');
    assert.equal(second.fallback, null);
    assert.deepEqual(second.result, [{ file: 'f', entry: 'hello', score: null, source: 'moody' }]);
  });

  it('a plugin that no longer exists makes status "default-instead" with the reason, and calls fall back', async () => {
    const file = home.writePlugin('example_memory.mjs', readFileSync(join(examples, 'example_memory.mjs'), 'utf8'));
    home.writeConfig({ slots: { memory: 'example_memory' } });
    const pepe = await home.pepe();
    let memory = (await pepe.slotList()).find((s) => s.slot === 'memory')!;
    assert.deepEqual([memory.occupant, memory.status, memory.scope], ['example_memory', 'ok', 'install']);
    const { rmSync } = await import('node:fs');
    rmSync(file);
    memory = (await pepe.slotList()).find((s) => s.slot === 'memory')!;
    assert.deepEqual([memory.occupant, memory.status], ['builtin', 'default-instead']);
    assert.match(memory.reason!, /"example_memory" is not installed/);
    const answer = await pepe.slotTest('memory', { query: 'x' });
    assert.equal(answer.answeredBy, 'builtin');
    assert.match(answer.fallback!.detail, /not installed/);
  });

  it('a plugin claiming another slot is reported, not used', async () => {
    home.writePlugin('tail.mjs', readFileSync(join(examples, 'tail_only_compaction.mjs'), 'utf8'));
    home.writeConfig({ slots: { memory: 'tail_only_compaction' } });
    const pepe = await home.pepe();
    const memory = (await pepe.slotList()).find((s) => s.slot === 'memory')!;
    assert.equal(memory.status, 'default-instead');
    assert.match(memory.reason!, /claims slot "compaction", not "memory"/);
  });

  it('tail_only_compaction keeps the system messages, a marker and the last 12', async () => {
    home.writePlugin('tail_only_compaction.mjs', readFileSync(join(examples, 'tail_only_compaction.mjs'), 'utf8'));
    home.writeConfig({ slots: { compaction: 'tail_only_compaction' } });
    const pepe = await home.pepe();
    const answer = await pepe.slotTest('compaction');
    assert.equal(answer.answeredBy, 'tail_only_compaction');
    const messages = answer.result as { role: string; content: string }[];
    assert.equal(messages.length, 1 + 1 + 12);
    assert.equal(messages[0]!.role, 'system');
    assert.match(messages[1]!.content, /Earlier turns were dropped/);
    assert.equal(messages.at(-1)!.content, 'answer 15');
  });

  it('TypeScript and CommonJS plugins load; a .ts plugin gets types stripped', async () => {
    home.writePlugin('typed.ts', `interface Hit { file: string; entry: string; score: number | null; source: string | null }
      export function name(): string { return 'typed'; }
      export function slot(): 'memory' { return 'memory'; }
      export function search(_a: string, q: string): Hit[] { return [{ file: 't', entry: q as string, score: null, source: null }]; }`);
    home.writePlugin('common.cjs', `module.exports = { name: () => 'common', slot: () => 'web_search', search: (q) => [{ title: null, url: null, snippet: q }] };`);
    const pepe = await home.pepe();
    const plugins = await pepe.pluginList();
    assert.deepEqual(plugins.map((p) => [p.name, p.slot, p.error]), [['common', 'web_search', null], ['typed', 'memory', null]]);
  });

  it('a plugin file that fails to load is listed with its error', async () => {
    home.writePlugin('broken.mjs', 'export function name( {');
    home.writePlugin('shapeless.mjs', 'export const x = 1;');
    const pepe = await home.pepe();
    const plugins = await pepe.pluginList();
    assert.equal(plugins.length, 2);
    assert.match(plugins[0]!.error!, /failed to load/);
    assert.match(plugins[1]!.error!, /does not export name\(\) and slot\(\)/);
  });

  it('a harness plugin that throws fails the call with its error and is never re-run by the built-in', async () => {
    home.writePlugin('bad_harness.mjs', misbehavingPlugin('harness', 'throw'));
    home.writeConfig({ agents: { a: { slots: { harness: 'bad_harness_throw' } } } });
    const pepe = await home.pepe();
    const harness = await pepe['slots'].harnessFor('a');
    assert.ok(harness, 'harness');
    await assert.rejects(async () => {
      try {
        await harness.plugin.run({ name: 'a' }, [], {});
      } catch (e) {
        throw pepe['slots'].harnessFailed('a', harness.name, e, 1);
      }
    }, (e: unknown) => e instanceof HarnessFailedError && /plugin exploded/.test(e.message));
    const records = pepe['log'].readAll();
    assert.equal(records.length, 1);
    assert.equal(records[0]!.kind === 'slot_fallback' && records[0]!.outcome, 'error');
  });

  it('a configured harness that is missing is an error, not a silent switch to the built-in loop', async () => {
    home.writeConfig({ agents: { a: { slots: { harness: 'ghost' } } } });
    const pepe = await home.pepe();
    await assert.rejects(pepe['slots'].harnessFor('a'), HarnessFailedError);
  });
});
