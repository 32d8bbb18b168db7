import assert from 'node:assert/strict';
import { z } from 'zod';
import { lazySchema } from '../../../src/core/lazy-schema.js';
import { parseManifest, SlotManifest } from '../../../src/core/cores/manifest.js';
import { Decision } from '../../../src/core/permissions/approval.js';
import { SLOT_RESULTS } from '../../../src/core/slots/contracts.js';
import { EditFileInput } from '../../../src/core/tools/edit-file.js';

const eager = () =>
  z
    .object({
      name: z.string().min(1).describe('who'),
      n: z.number().int().nullish().transform((v) => v ?? null),
      kind: z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b'), x: z.string() })]),
    })
    .strict()
    .describe('a thing');

describe('schemas built on first use (src/core/lazy-schema.ts, issue 27)', () => {
  it('builds nothing until first used, then builds once and keeps that instance', () => {
    let built = 0;
    const s = lazySchema(() => {
      built++;
      return z.string();
    });
    const holder = z.object({ s }); // composing it does not use it
    assert.equal(built, 0);
    assert.equal(s.parse('x'), 'x');
    assert.equal(holder.parse({ s: 'y' }).s, 'y');
    s.safeParse(1);
    assert.equal(built, 1);
  });

  it('validates exactly as the schema it stands for: results, errors and paths, alone and inside others', () => {
    const real = eager();
    const lazy = lazySchema(eager);
    const inputs: unknown[] = [
      { name: 'a', kind: { k: 'a' } },
      { name: 'a', n: 3, kind: { k: 'b', x: 'y' } },
      { name: '', kind: { k: 'a' } },
      { name: 'a', kind: { k: 'c' } },
      { name: 'a', kind: { k: 'b' } },
      { name: 'a', kind: { k: 'a' }, extra: true },
      { name: 'a', n: 1.5, kind: { k: 'a' } },
      null,
      'text',
      [],
    ];
    for (const input of inputs) {
      assert.deepEqual(lazy.safeParse(input), real.safeParse(input), JSON.stringify(input));
      assert.deepEqual(z.array(lazy).safeParse([input]), z.array(real).safeParse([input]), JSON.stringify(input));
      assert.deepEqual(z.object({ inner: lazy }).safeParse({ inner: input }), z.object({ inner: real }).safeParse({ inner: input }));
    }
    assert.throws(() => lazy.parse(null), z.ZodError);
  });

  it('is the schema to zod and to JSON Schema: instanceof, shape, description (top-level too)', () => {
    const real = eager();
    const lazy = lazySchema(eager);
    assert.ok(lazy instanceof z.ZodObject);
    assert.ok('shape' in lazy);
    assert.deepEqual(Object.keys(lazy.shape), ['name', 'n', 'kind']);
    assert.equal(lazy.description, 'a thing');
    assert.deepEqual(z.toJSONSchema(lazy, { io: 'input' }), z.toJSONSchema(real, { io: 'input' }));
    assert.deepEqual(z.toJSONSchema(z.object({ t: lazy }), { io: 'input' }), z.toJSONSchema(z.object({ t: real }), { io: 'input' }));
    assert.deepEqual(z.toJSONSchema(lazySchema(eager), { io: 'input' }), z.toJSONSchema(real, { io: 'input' }), 'JSON Schema before any other use');
  });

  it('cannot be redefined or stripped through the stand-in', () => {
    const lazy = lazySchema(() => z.string());
    assert.equal(Reflect.deleteProperty(lazy, 'parse'), false);
    assert.equal(Reflect.defineProperty(lazy, 'parse', { value: () => 'forged' }), false);
    assert.throws(() => lazy.parse(1));
  });

  it('the schemas moved behind first use still refuse what they refused', () => {
    assert.equal(SLOT_RESULTS.compaction.safeParse([]).success, false, 'compaction must return messages');
    assert.equal(SLOT_RESULTS.memory.safeParse([{ file: 'f' }]).success, false);
    assert.deepEqual(SLOT_RESULTS.memory.parse([{ file: 'f', entry: 'e' }]), [{ file: 'f', entry: 'e', score: null, source: null }]);
    assert.equal(SLOT_RESULTS.sandbox.safeParse({ output: '', exitStatus: 1.5 }).success, false);
    assert.equal(SLOT_RESULTS.heartbeat_interval.safeParse('yes').success, false);
    assert.equal(SlotManifest.safeParse({ entrypoint: 'module:process', extra: 1 }).success, false, 'strict');
    assert.equal(SlotManifest.parse({}).entrypoint, 'module:process');
    const bad = parseManifest('slot.yaml', 'timeout_seconds: -1\n');
    assert.equal(bad.manifest, null);
    assert.match(bad.problems[0]?.message ?? '', /timeout_seconds: expected null or a number of seconds/);
    assert.equal(Decision.safeParse({ kind: 'allow_forever' }).success, false);
    assert.equal(Decision.parse({ kind: 'deny', reason: 'no' }).kind, 'deny');
    assert.equal(EditFileInput.safeParse({ path: 'a', edits: [] }).success, false);
    assert.equal(EditFileInput.safeParse({ path: 'a', edits: [{ search: 'x', replace: 'y', more: 1 }] }).success, false);
  });
});
