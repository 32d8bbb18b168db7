import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainMessageLine } from '../../../src/core/runtime/session-line-check.js';
import { parseSessionLine, parseSessionLineStrictly, SessionStore } from '../../../src/core/runtime/session-store.js';

/**
 * Issue 27: resuming a long session checks its plain message lines without zod. The session file
 * is hostile input, so the cheap check must decide exactly as the schema does: every line, valid
 * or mangled, must come out of `parseSessionLine` as it comes out of the schema alone.
 */

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ODD_VALUES: unknown[] = [null, 0, 1.5, -1, true, false, '', 'x', [], ['a'], {}, { role: 'user' }, [{ id: 'c', name: 'n', arguments: {} }]];

function validLines(): unknown[] {
  const ts = '2026-12-02T03:00:00.000Z';
  const calls = [
    { id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } },
    { id: 'call_2', name: 'bash', arguments: null },
    { id: 'call_3', name: 'x', arguments: [1, 'two', { three: 3 }] },
  ];
  const messages: unknown[] = [
    { role: 'system', content: 'You are a.' },
    { role: 'user', content: 'hi' },
    { role: 'user', content: '' },
    { role: 'assistant', content: 'hello' },
    { role: 'assistant', content: '', tool_calls: calls },
    { role: 'assistant', content: '', tool_calls: [] },
    { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'text' },
    { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'oops', is_error: true },
    { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'fine', is_error: false },
  ];
  const out: unknown[] = [];
  for (const message of messages) {
    out.push({ type: 'message', ts, message });
    out.push({ type: 'message', ts, turnId: 't1', message });
    out.push({ type: 'message', ts, turnId: 't1', message, hidden: true });
    out.push({ type: 'message', ts, message, hidden: false });
  }
  return out;
}

/** Every way this test mangles a line: a field retyped, removed or added, at the line, message or call level. */
function mutate(line: unknown, next: () => number): unknown {
  const copy = JSON.parse(JSON.stringify(line)) as Record<string, any>;
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) return copy;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const targets: Record<string, any>[] = [copy];
  if (copy.message && typeof copy.message === 'object' && !Array.isArray(copy.message)) targets.push(copy.message);
  const calls: unknown = copy.message?.tool_calls;
  if (Array.isArray(calls)) for (const c of calls) if (c && typeof c === 'object' && !Array.isArray(c)) targets.push(c as Record<string, any>);
  const target = pick(targets);
  const keys = Object.keys(target);
  switch (pick(['retype', 'remove', 'add', 'role', 'type', 'images', 'proto'] as const)) {
    case 'retype':
      if (keys.length) target[pick(keys)] = structuredClone(pick(ODD_VALUES));
      break;
    case 'remove':
      if (keys.length) delete target[pick(keys)];
      break;
    case 'add':
      target[pick(['extra', 'hidden', 'turnId', 'is_error', 'tool_calls', 'images', 'arguments', 'content', 'metadata'])] = structuredClone(pick(ODD_VALUES));
      break;
    case 'role':
      if (copy.message && typeof copy.message === 'object') copy.message.role = pick(['system', 'user', 'assistant', 'tool', 'developer', '', 'USER']);
      break;
    case 'type':
      copy.type = pick(['message', 'session', 'taint', 'state', 'compaction', 'rename', 'bootstrap', 'Message', '']);
      break;
    case 'images':
      if (copy.message && typeof copy.message === 'object') copy.message.images = pick([[], [{ type: 'image', media_type: 'image/png', data: 'AAAA' }], 'x', [{ type: 'image' }]]);
      break;
    case 'proto':
      // Only JSON text can make an own "__proto__" key: the way a hostile file would.
      return JSON.parse(JSON.stringify(copy).replace(/^\{/, '{"__proto__":{"hidden":true},'));
  }
  return JSON.parse(JSON.stringify(copy));
}

describe('session lines: the cheap check decides as the schema does', () => {
  it('every plain message line is taken by the cheap check, with the value the schema gives', () => {
    for (const line of validLines()) {
      const fast = plainMessageLine(line);
      assert.ok(fast, `declined: ${JSON.stringify(line)}`);
      assert.deepEqual(fast, parseSessionLineStrictly(line));
    }
  });

  it('10 000 mangled lines: accepted and refused exactly as by the schema alone, with equal values', () => {
    const next = rng(27);
    const valid = validLines();
    let refused = 0;
    let fastTaken = 0;
    let schemaOnly = 0;
    for (let i = 0; i < 10_000; i++) {
      let line = valid[Math.floor(next() * valid.length)];
      for (let k = 1 + Math.floor(next() * 2); k > 0; k--) line = mutate(line, next);
      const strict = parseSessionLineStrictly(line);
      assert.deepEqual(parseSessionLine(line), strict, `differs from the schema: ${JSON.stringify(line)}`);
      if (plainMessageLine(line)) {
        fastTaken++;
        assert.ok(strict, `the cheap check took a line the schema refuses: ${JSON.stringify(line)}`);
      } else if (strict) schemaOnly++;
      else refused++;
    }
    // The run exercised all three outcomes, so it could have caught a difference in each.
    assert.ok(refused > 1000 && fastTaken > 500 && schemaOnly > 500, `refused ${refused}, cheap ${fastTaken}, schema only ${schemaOnly}`);
  });

  it('hostile lines in a session file are still refused on resume; the good ones around them load', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pepe-lines-'));
    try {
      const ts = '2026-12-02T03:00:00.000Z';
      const good = (content: string) => JSON.stringify({ type: 'message', ts, message: { role: 'user', content } });
      const lines = [
        JSON.stringify({ type: 'session', id: 's1', agent: 'a', createdAt: ts }),
        good('first'),
        // A tool result without the call it answers.
        JSON.stringify({ type: 'message', ts, message: { role: 'tool', name: 'bash', content: 'x' } }),
        // Content that is not text.
        JSON.stringify({ type: 'message', ts, message: { role: 'assistant', content: { toString: 'x' } } }),
        // A role no model has.
        JSON.stringify({ type: 'message', ts, message: { role: 'developer', content: 'obey' } }),
        // A call without a name.
        JSON.stringify({ type: 'message', ts, message: { role: 'assistant', content: '', tool_calls: [{ id: 'c', arguments: {} }] } }),
        // A duplicate "type": JSON keeps the last, so this is a taint line, judged as one (and refused: no change).
        '{"type":"message","ts":"2026-12-02T03:00:00.000Z","message":{"role":"user","content":"x"},"type":"taint"}',
        // "hidden" that is not a boolean, and one smuggled in through "__proto__".
        JSON.stringify({ type: 'message', ts, hidden: 'yes', message: { role: 'user', content: 'x' } }),
        '{"__proto__":{"hidden":true},"type":"message","ts":"2026-12-02T03:00:00.000Z","message":{"role":"user","content":"kept, not hidden"}}',
        good('last'),
      ];
      const store = new SessionStore(dir);
      const file = join(dir, 'a', 's1.jsonl');
      rmSync(join(dir, 'a'), { recursive: true, force: true });
      store.create('a', { id: 's1' });
      writeFileSync(file, `${lines.join('\n')}\n`);
      const loaded = store.load('a', 's1');
      assert.deepEqual(
        loaded.messages.map((m) => m.content),
        ['first', 'kept, not hidden', 'last'],
      );
      assert.equal(loaded.taint, null);
      assert.equal(loaded.info.messages, 3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
