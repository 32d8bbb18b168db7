import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectEvents } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/**
 * The same contract through a real turn, where slot modules run in their own process against a
 * mirror ctx (core-process.ts, core-host-source.ts): the mirror must keep in step with Pepe's ctx.
 */
describe('agent cores: the out-of-process ctx keeps the upstream semantics', function () {
  this.timeout(60_000);
  let home: TempHome;
  beforeEach(() => (home = new TempHome()));
  afterEach(() => home.cleanup());

  function core(slots: Record<string, { body: string; yaml?: string }>, pipelines: string): string {
    const dir = join(home.dir, 'cores', 'remote');
    for (const [key, s] of Object.entries(slots)) {
      const folder = join(dir, 'agent', key);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'module.js'), `export async function process(ctx) {\n${s.body}\n}\n`);
      writeFileSync(join(folder, 'slot.yaml'), s.yaml ?? '');
    }
    writeFileSync(join(dir, 'agent/pipelines.yaml'), pipelines);
    return dir;
  }

  it('history without a capability, keyed state grants, result merging and strict JSON, input deliveries, return_ignored, slotPath', async () => {
    const dir = core(
      {
        'input/base_input': {
          body: `ctx.input.sendText('before the answer');
ctx.input.addContext('   ');
ctx.input.addContext(JSON.stringify({ h: ctx.history.recentMessages(0), path: ctx.slotPath, id: ctx.turn.coreId, n: ctx.state.session.get('counter') ?? 0 }), { role: 'user' });
ctx.state.session.set('counter', 1);
return 'ignored';`,
          yaml: 'failure_policy: hard\ncapabilities: [state.session.write:counter]\n',
        },
        'output/first': { body: "ctx.result.set({ a: 1 }); ctx.output.sendText(ctx.output.responseText);", yaml: 'failure_policy: hard\n' },
        'output/second': { body: "ctx.result.set({ b: 2 }); ctx.output.notice(ctx.history.recentMessages(1)[0].content);", yaml: 'failure_policy: hard\n' },
        'output/bad': { body: 'ctx.result.set({ c: NaN });' },
        'output/snoop': { body: "ctx.state.session.snapshot();", yaml: 'capabilities: [state.session.read:counter]\n' },
      },
      'schema_version: 1\ninput: { serial: [base_input] }\noutput: { serial: [first, second, bad, snoop] }\n',
    );
    home.writeConfig({ agents: { a: { model: 'mock', core: dir } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'hi', onEvent });
    assert.equal(result.status, 'ok', result.error);
    const coreEvents = events.flatMap((e) => (e.type === 'core' ? [e.event] : []));
    assert.ok(coreEvents.some((e) => e.type === 'core_sent' && e.text === 'before the answer'));
    assert.ok(coreEvents.some((e) => e.type === 'core_return_ignored' && e.slotId === 'base_input' && e.valueType === 'string'));
    assert.ok(coreEvents.some((e) => e.type === 'core_notice' && /You said:/.test(e.text)), 'output slots see the turn in history');
    const failed = coreEvents.flatMap((e) => (e.type === 'core_slot_failed' ? [[e.slotId, e.message]] : []));
    assert.equal(failed.length, 2, JSON.stringify(failed));
    assert.match(failed[0]![1]!, /NaN, which is not JSON/);
    assert.match(failed[1]![1]!, /needs the capability "state\.session\.read"/);
    assert.match(result.content, /You said: \{"h":\[\],"path":"agent\/input\/base_input","id":"a","n":0\}/);
    const again = await pepe.run({ agent: 'a', text: 'hi', sessionId: result.sessionId });
    assert.match(again.content, /"n":1/, 'the keyed grant wrote the key');
  });
});
