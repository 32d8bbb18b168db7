/**
 * Attack: get a key out in the clear (issue 12). The key contains a quote, a backslash and non-ASCII
 * characters, so every serialisation spells it differently; the model spells it out across stream
 * deltas; it ends up in tool arguments that are parked, in the log and in the transcript. None of
 * these may hold it in any spelling: raw, JSON-escaped (once or twice), \u-escaped or percent-encoded.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { EventLog } from '../../../src/core/log.js';
import { PendingApprovals } from '../../../src/core/permissions/pending.js';
import type { TurnEvent } from '../../../src/core/events.js';
import { TurnEventRedactor } from '../../../src/core/secrets/redact-events.js';
import { REDACTED, Redactor, secretForms, StreamRedactor } from '../../../src/core/secrets/redact.js';
import { CLI, ensureBuilt } from '../helpers/cli.js';
import { recordAttacks } from './record.js';

/** A key with everything JSON escapes: a quote, a backslash, a control character, non-ASCII, an astral character. */
const KEY = 'sk-"q\\u\u00e9-\u00fc\t\u20ac-\u{1F511}-9f3a77c1';

/** Every spelling of KEY an attacker could decode, independent of the code under test. */
function spellings(secret: string): string[] {
  const once = JSON.stringify(secret).slice(1, -1);
  const ascii = once.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const asciiUpper = ascii.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`);
  return [secret, once, JSON.stringify(once).slice(1, -1), ascii, asciiUpper, JSON.stringify(ascii).slice(1, -1), encodeURIComponent(secret)];
}

function leaks(text: string, secret = KEY): string[] {
  return spellings(secret).filter((s) => text.includes(s));
}

describe('attacks: secrets in every spelling', () => {
  recordAttacks('secret leaks', 'no secret value appears in the clear in any output, file or stream');
  it('the redactor knows every spelling of the key', () => {
    const r = new Redactor([KEY]);
    for (const s of spellings(KEY)) {
      assert.ok(secretForms(KEY).includes(s), `no form ${s}`);
      assert.equal(r.text(`x ${s} y`), `x ${REDACTED} y`);
    }
  });

  it('masks values, the serialised text, JSON inside JSON, and keeps the document valid JSON', () => {
    const r = new Redactor([KEY]);
    const doc = { args: { command: `curl -H "Authorization: Bearer ${KEY}" https://x.test/?k=${encodeURIComponent(KEY)}` }, nested: JSON.stringify({ key: KEY }), [KEY]: 1 };
    const before = JSON.stringify(doc);
    assert.ok(leaks(before).length > 0, 'the test document must carry the key');
    const text = r.json(doc);
    assert.deepEqual(leaks(text), []);
    const parsed = JSON.parse(text);
    assert.match(parsed.args.command, /Bearer \[redacted\]" https:\/\/x\.test\/\?k=\[redacted\]$/);
    assert.ok(leaks(JSON.stringify(JSON.stringify(doc))).length > 0);
    assert.deepEqual(leaks(r.text(JSON.stringify(JSON.stringify(doc)))), []);
    assert.deepEqual(leaks(JSON.stringify(r.value(doc))), []);
  });

  it('masks inside arrays, nested objects, keys named __proto__ and values with toJSON; a cycle stays a cycle marker', () => {
    const r = new Redactor([KEY]);
    // JSON.parse makes "__proto__" an own key: masking must keep it as one, with its value masked.
    const doc = JSON.parse(`{"list": ["plain", {"deep": [${JSON.stringify(KEY)}]}], "__proto__": {"token": ${JSON.stringify(KEY)}}}`) as Record<string, unknown>;
    doc.at = { toJSON: () => `at ${KEY}` };
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    doc.cyclic = cyclic;
    for (const out of [JSON.parse(r.json(doc)), JSON.parse(JSON.stringify(r.value(doc)))]) {
      assert.deepEqual(out.list, ['plain', { deep: [REDACTED] }]);
      assert.ok(Object.prototype.hasOwnProperty.call(out, '__proto__'), 'the __proto__ key is kept');
      assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { token: REDACTED });
      assert.equal(out.at, `at ${REDACTED}`);
      assert.deepEqual(out.cyclic, { name: 'loop', self: '[circular]' });
    }
  });

  it('a __proto__ key before the first key that needs masking is kept as a key (copy on write)', () => {
    const r = new Redactor([KEY]);
    // Nothing under "__proto__" needs masking, so the copy starts only at "later": the keys before
    // it are copied then, and "__proto__" must stay an own key rather than become the prototype.
    const doc = JSON.parse(`{"__proto__": {"plain": 1}, "later": ${JSON.stringify(KEY)}}`) as Record<string, unknown>;
    for (const out of [JSON.parse(r.json(doc)), JSON.parse(JSON.stringify(r.value(doc)))]) {
      assert.ok(Object.prototype.hasOwnProperty.call(out, '__proto__'), 'the __proto__ key is kept');
      assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { plain: 1 });
      assert.equal(out.later, REDACTED);
    }
  });

  it('value() is a copy even where nothing is masked; json() of a value needing no masking is its JSON', () => {
    const r = new Redactor([KEY]);
    const doc = { type: 'tool_result', content: 'nothing secret here', path: ['a', 'b'], nested: { n: 1 } };
    const copy = r.value(doc);
    assert.deepEqual(copy, doc);
    assert.notEqual(copy, doc);
    assert.notEqual(copy.path, doc.path);
    assert.notEqual(copy.nested, doc.nested);
    assert.equal(r.json(doc), JSON.stringify(doc));
    assert.equal(r.json(doc, 2), JSON.stringify(doc, null, 2));
  });

  it('a key that looks like JSON punctuation cannot break the document', () => {
    const odd = '","x":"abcdefgh';
    const r = new Redactor([odd]);
    const text = r.json({ a: 'abcdefgh', b: `1${odd}2` });
    JSON.parse(text);
    assert.ok(!text.includes(JSON.stringify(odd).slice(1, -1)));
  });

  it('a key split across stream pieces at every position is still masked; other text passes unchanged', () => {
    const r = new Redactor([KEY]);
    const text = `before ${KEY} middle ${KEY} after`;
    for (let i = 1; i < text.length - 1; i++) {
      for (const j of [i + 1, Math.min(text.length - 1, i + 7)]) {
        const s = new StreamRedactor(r);
        const out = [text.slice(0, i), text.slice(i, j), text.slice(j)].map((p) => s.push(p)).join('') + s.flush();
        assert.equal(out, `before ${REDACTED} middle ${REDACTED} after`, `split at ${i}/${j}`);
      }
    }
  });

  it('turn events: deltas are held only as long as needed and released in order before the next event', () => {
    const out: TurnEvent[] = [];
    const r = new TurnEventRedactor([KEY], (e) => out.push(e));
    const path = ['a'];
    const half = Math.floor(KEY.length / 2);
    r.handle({ type: 'assistant_delta', path, text: `key: ${KEY.slice(0, half)}` });
    r.handle({ type: 'assistant_delta', path, text: `${KEY.slice(half)} ok sk-` });
    r.handle({ type: 'tool_call', path, id: '1', name: 'bash', arguments: { command: `echo ${KEY}` } });
    r.flush();
    const lines = out.map((e) => r.json(e)).join('\n');
    assert.deepEqual(leaks(lines), []);
    assert.deepEqual(
      out.map((e) => (e.type === 'assistant_delta' ? e.text : e.type)),
      ['key: ', `${REDACTED} ok `, 'sk-', 'tool_call'],
    );
  });

  describe('on disk', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'pepe-secret-disk-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('the log: neither the line written nor what listeners get holds the key', () => {
      const log = new EventLog(dir, () => [KEY]);
      const heard: string[] = [];
      log.onEntry((e) => heard.push(JSON.stringify(e)));
      log.write({ kind: 'info', message: `plugin said ${KEY}`, detail: { stderr: JSON.stringify({ token: KEY }) } });
      const file = readFileSync(log.file, 'utf8');
      assert.match(file, /\[redacted\]/);
      assert.deepEqual(leaks(file), []);
      assert.deepEqual(leaks(heard.join('\n')), []);
      assert.equal(log.readAll().length, 1);
    });

    it('a parked approval’s stored arguments', async () => {
      const store = new PendingApprovals(dir, { secrets: () => [KEY] });
      const parked = await store.park({ agent: 'a', chain: ['a'], tool: 'bash', args: { command: `curl -H 'X-Key: ${KEY}' https://x.test` }, cwd: dir, parkedBecause: 'no_person', summary: `bash: curl … ${KEY}` });
      const text = readFileSync(join(dir, `${parked.id}.json`), 'utf8');
      assert.deepEqual(leaks(text), []);
      assert.match(JSON.stringify((await store.get(parked.id)).args), /X-Key: \[redacted\]/);
      await store.deny(parked.id, { reason: `no, ${KEY}` });
      assert.deepEqual(leaks(readFileSync(join(dir, `${parked.id}.json`), 'utf8')), []);
    });
  });

  describe('through `pepe run --json`', function () {
    this.timeout(60_000);
    let home: string;
    before(ensureBuilt);
    beforeEach(() => {
      home = mkdtempSync(join(tmpdir(), 'pepe-secret-run-'));
    });
    afterEach(() => rmSync(home, { recursive: true, force: true }));

    const allFiles = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? allFiles(join(d, n)) : [join(d, n)]));

    it('the event stream, the transcript, the log and the parked call hold no spelling of the key', async () => {
      const script = join(home, 'script.json');
      writeFileSync(
        script,
        JSON.stringify({
          steps: [
            { text: `Your key is ${KEY}, right?`, chunk_size: 5, tool_calls: [{ name: 'write_file', arguments: { path: 'key.txt', content: `KEY=${KEY}` } }] },
            { text: `done with ${KEY}`, chunk_size: 3 },
          ],
        }),
      );
      mkdirSync(join(home, 'work'));
      writeFileSync(
        join(home, 'config.json'),
        JSON.stringify({
          models: { remote: { provider: 'openai-compatible', model: 'x', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'ODD_NAME' } },
          agents: { a: { model: `mock:${script}`, tools: ['write_file'] } },
        }),
      );
      const r = await execa('node', [CLI, 'run', 'a', `use ${KEY} please`, '--json', '--no-input'], {
        cwd: join(home, 'work'),
        env: { PATH: process.env.PATH ?? '', HOME: home, PEPE_HOME: home, ODD_NAME: KEY },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
        timeout: 50_000,
      });
      assert.equal(r.exitCode, 0, r.stderr);
      const events = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as TurnEvent);
      assert.equal(events.at(-1)?.type, 'turn_end');
      const answer = events.filter((e) => e.type === 'assistant_delta').map((e) => (e as { text: string }).text).join('');
      assert.match(answer, /Your key is \[redacted\], right\?/);
      const places: Record<string, string> = { 'the --json stream': r.stdout, stderr: r.stderr };
      for (const f of allFiles(home)) if (f !== script && !f.endsWith('config.json')) places[f.slice(home.length + 1)] = readFileSync(f, 'utf8');
      assert.ok(Object.keys(places).some((p) => p.startsWith('approvals/')), `nothing was parked: ${Object.keys(places).join(', ')}`);
      assert.ok(Object.keys(places).some((p) => p.startsWith('sessions/')), 'no transcript');
      const found = Object.entries(places).flatMap(([where, text]) => leaks(text).map((s) => `${where}: ${JSON.stringify(s)}`));
      assert.deepEqual(found, []);
    });
  });
});
