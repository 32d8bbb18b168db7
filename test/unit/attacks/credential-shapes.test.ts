import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolMessage } from '../../../src/core/messages.js';
import { maskCredentials } from '../../../src/core/secrets/credential-patterns.js';
import { Redactor, StreamRedactor } from '../../../src/core/secrets/redact.js';
import { collectEvents, script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';
import { recordAttacks } from './record.js';

/**
 * Credential-shaped output (a `.env` file, a config, a curl -v) is masked by its shape, not only
 * when its value is a known environment variable: in what goes back to the model, in the event
 * stream every surface reads (`pepe run`, `pepe chat`, the editor's chat), in the log and in the
 * transcript. None of these secrets is known to Pepe: it masks them by shape alone.
 */

const PEM_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj';
/** [printed line, the secret part that must not appear anywhere]. */
export const SHAPES: [string, string][] = [
  ['DB_PASSWORD=hunter2hunter2', 'hunter2hunter2'],
  ['export AWS_SECRET_ACCESS_KEY="wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"', 'wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY'],
  ['api_key: abcd1234efgh5678', 'abcd1234efgh5678'],
  ['{"token": "tok-12345678-abcdef"}', 'tok-12345678-abcdef'],
  ['mysql --password=Pa55w0rd-Xy9 -u root', 'Pa55w0rd-Xy9'],
  ['Authorization: Bearer abc.def-ghi_jkl12345', 'abc.def-ghi_jkl12345'],
  ['curl -H "Authorization: Basic dXNlcjpwYXNzd29yZDEyMw=="', 'dXNlcjpwYXNzd29yZDEyMw=='],
  ['id_token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  [`-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`, PEM_BODY],
  ['aws id AKIAIOSFODNN7EXAMPLE here', 'AKIAIOSFODNN7EXAMPLE'],
  [`github ghp_${'a1B2c3D4e5'.repeat(4)}`, `ghp_${'a1B2c3D4e5'.repeat(4)}`],
  ['gitlab glpat-Zx9Yw8Vu7Ts6Rq5Po4Nm', 'glpat-Zx9Yw8Vu7Ts6Rq5Po4Nm'],
  ['slack xoxb-1234567890-abcdefghijkl', 'xoxb-1234567890-abcdefghijkl'],
  [`openai sk-proj-${'Q7w8E9r0T1y2'.repeat(2)}`, `Q7w8E9r0T1y2Q7w8E9r0T1y2`],
  [`anthropic sk-ant-api03-${'Hj4Kl5Mn6Op7'.repeat(2)}`, 'Hj4Kl5Mn6Op7Hj4Kl5Mn6Op7'],
  ['DATABASE=postgres://admin:s3cr3tpass@db.internal:5432/app', 's3cr3tpass'],
];

const leaked = (text: string) => SHAPES.filter(([, secret]) => text.includes(secret)).map(([, s]) => s);

describe('attack: credential-shaped output reaches the model and the surfaces unmasked', function () {
  this.timeout(60_000);
  recordAttacks('credential shape masking', 'no credential-shaped value reaches the model, the event stream, the log or the transcript');
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  // failed against bfd1589: every one of the secrets reached the model, the events and the transcript.
  it('a command printing each shape: the model, the event stream and the transcript see none of them', async () => {
    writeFileSync(join(home.workspace, 'notes.txt'), SHAPES.map(([line]) => line).join('\n') + '\n');
    const model = script(home, 'a', [{ tool_calls: [{ name: 'bash', arguments: { command: 'cat notes.txt' } }] }, { echo_prompt: true }]);
    home.writeConfig({ agents: { a: { model, auto_approve: ['bash'] } } });
    const pepe = await home.pepe({ workspace: home.workspace });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'show me the notes', onEvent });
    const tool = result.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    assert.match(tool.content, /DB_PASSWORD=\[redacted\]/, tool.content);
    assert.deepEqual(leaked(tool.content), [], 'the tool result the model reads');
    assert.match(result.content, /DB_PASSWORD=\[redacted\]/, 'the next model call saw the masked output');
    assert.deepEqual(leaked(result.content), [], 'the next model call');
    assert.deepEqual(leaked(JSON.stringify(events)), [], 'the event stream');
    const transcript = readFileSync(join(home.dir, 'sessions', 'a', `${result.sessionId}.jsonl`), 'utf8');
    assert.deepEqual(leaked(transcript), [], 'the transcript');
  });

  // failed against bfd1589: the deltas spelled the password out (only known values were masked).
  it('a model that spells a credential out across deltas: the stream, the message and the transcript mask it', async () => {
    const text = `Here you go:\nDB_PASSWORD=hunter2hunter2 and the header Authorization: Bearer abc.def-ghi_jkl12345\nand ghp_${'a1B2c3D4e5'.repeat(4)} done`;
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ text, chunk_size: 3 }]) } } });
    const pepe = await home.pepe({ workspace: home.workspace });
    const { onEvent, events } = collectEvents();
    const result = await pepe.run({ agent: 'a', text: 'what is the password?', onEvent });
    const streamed = events.flatMap((e) => (e.type === 'assistant_delta' ? [e.text] : [])).join('');
    assert.equal(streamed, 'Here you go:\nDB_PASSWORD=[redacted] and the header Authorization: Bearer [redacted]\nand [redacted] done');
    assert.ok(events.filter((e) => e.type === 'assistant_delta').length > 3, 'still streamed in pieces');
    assert.deepEqual(leaked(JSON.stringify(events)), []);
    const transcript = readFileSync(join(home.dir, 'sessions', 'a', `${result.sessionId}.jsonl`), 'utf8');
    assert.deepEqual(leaked(transcript), []);
  });

  // failed against bfd1589: the log line kept every secret.
  it('the log masks credential shapes in what it is given', async () => {
    const pepe = await home.pepe({ workspace: home.workspace });
    const entry = pepe['log'].write({ kind: 'plugin_output', plugin: 'p', text: SHAPES.map(([line]) => line).join('\n') });
    assert.deepEqual(leaked(JSON.stringify(entry)), [], 'what a listener (the editor\'s log channel) gets');
    assert.deepEqual(leaked(readFileSync(pepe['log'].file, 'utf8')), [], 'the log file');
  });
});

describe('credential shapes: each one masked, ordinary text and code left alone', () => {
  for (const [line, secret] of SHAPES) {
    it(`masks ${line.split('\n')[0]!.slice(0, 40)}`, () => {
      const masked = maskCredentials(line);
      assert.ok(!masked.includes(secret), masked);
      assert.match(masked, /\[redacted/);
    });
  }

  const ORDINARY = [
    'const apiKey = process.env.API_KEY;',
    'token: string;',
    'password: z.string().min(8),',
    'author: Jane Doe',
    'monkey=banana',
    'export API_KEY=$API_KEY',
    'PASSWORD="${DB_PASSWORD}"',
    'key: a',
    'see https://example.test/path?x=1 and git@github.com:o/r.git',
    'Note: the build takes 3 minutes; sortKey: name',
    'DB_PASSWORD=[redacted]',
  ];
  for (const text of ORDINARY) {
    it(`leaves "${text}" as it is`, () => assert.equal(maskCredentials(text), text));
  }

  it('a stream cut at every position masks exactly what masking the whole text does', () => {
    const text = `intro\n${SHAPES.map(([line]) => line).join(' and then\n')}\nbye`;
    const whole = maskCredentials(text);
    for (let i = 1; i < text.length; i++) {
      const stream = new StreamRedactor(new Redactor([]));
      const out = stream.push(text.slice(0, i)) + stream.push(text.slice(i)) + stream.flush();
      assert.equal(out, whole, `cut at ${i}`);
    }
    for (let size = 1; size <= 7; size++) {
      const stream = new StreamRedactor(new Redactor([]));
      let out = '';
      for (let i = 0; i < text.length; i += size) out += stream.push(text.slice(i, i + size));
      assert.equal(out + stream.flush(), whole, `pieces of ${size}`);
    }
  });

  it('masking remembered for texts seen before answers the same, text by text, also after the memory filled up', () => {
    const first = SHAPES.map(([line]) => maskCredentials(line));
    for (const [i, [line, secret]] of SHAPES.entries()) {
      assert.equal(maskCredentials(line), first[i], line);
      assert.ok(!maskCredentials(line).includes(secret), line);
      // A text that differs by one character is its own text, not the remembered one.
      assert.equal(maskCredentials(`${line} `), `${first[i]} `);
    }
    // More than the memory holds: old answers are let go, never mixed up.
    for (let i = 0; i < 40; i++) maskCredentials(`${'x'.repeat(60_000)} ${i}`);
    for (const [i, [line]] of SHAPES.entries()) assert.equal(maskCredentials(line), first[i], line);
  });
});
