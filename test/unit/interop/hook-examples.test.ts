import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolMessage } from '../../../src/core/messages.js';
import { ROOT } from '../helpers/cli.js';
import { script, ScriptedPrompter, type Step } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/**
 * The three worked hook examples of docs/interop.md are real files (docs/examples/hooks/), run
 * here as a person would use them, confined, around real turns: block edits to a path, run the
 * formatter after edits, audit every command to a file.
 */
describe('the worked hook examples (docs/examples/hooks)', function () {
  this.timeout(90_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const example = (name: string) => JSON.parse(readFileSync(join(ROOT, 'docs', 'examples', 'hooks', name), 'utf8')) as { hooks: Record<string, unknown> };
  const write = (path: string, content = 'x\n'): Step => ({ tool_calls: [{ name: 'write_file', arguments: { path, content } }] });

  async function turn(file: string, steps: Step[], agent: Record<string, unknown> = {}) {
    home.writeConfig({ ...example(file), agents: { a: { model: script(home, `a${Math.random()}`, steps), ...agent } } });
    const prompter = new ScriptedPrompter([]);
    const pepe = await home.pepe({ workspace: home.workspace, prompter });
    const result = await pepe.run({ agent: 'a', text: 'go', personPresent: false });
    assert.equal(result.status, 'ok', result.error);
    return { prompter, results: result.messages.filter((m): m is ToolMessage => m.role === 'tool'), sessionId: result.sessionId };
  }

  it('the docs show the same three files', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'interop.md'), 'utf8');
    for (const f of ['block-edits-to-a-path.json', 'run-formatter-after-edits.json', 'audit-every-command.json']) assert.ok(doc.includes(`examples/hooks/${f}`), f);
  });

  it('block edits to a path: a write under migrations/ is denied with the reason, even pre-approved; others run', async () => {
    const { results, prompter } = await turn('block-edits-to-a-path.json', [write('migrations/001.sql'), write('./migrations/002.sql'), write('src/ok.txt'), { text: 'done' }], { auto_approve: ['write_file:write'] });
    assert.match(results[0]!.content, /Denied by a hook: migrations are written by hand/);
    assert.match(results[1]!.content, /Denied by a hook: migrations are written by hand/);
    assert.ok(!existsSync(join(home.workspace, 'migrations')));
    assert.ok(existsSync(join(home.workspace, 'src', 'ok.txt')));
    assert.equal(prompter.requests.length, 0);
  });

  it("run the formatter after edits: the project's formatter rewrites the file; its complaint goes back to the model", async () => {
    // The project's own formatter (a stand-in for prettier under node_modules/.bin): trims trailing
    // spaces, and fails on a file it cannot parse.
    const bin = join(home.workspace, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(home.workspace, 'package.json'), '{}\n');
    writeFileSync(join(bin, 'prettier'), '#!/bin/sh\n[ "$1" = --write ] || exit 1\nif grep -q "SYNTAX ERROR" "$2"; then echo "[error] $2: SyntaxError: Unexpected token (1:1)" >&2; exit 2; fi\nsed -i "s/[ \\t]*$//" "$2"\n');
    chmodSync(join(bin, 'prettier'), 0o755);
    const { results } = await turn('run-formatter-after-edits.json', [write('a.txt', 'tidy   \n'), write('b.txt', 'SYNTAX ERROR\n'), { text: 'done' }], { auto_approve: ['write_file:write'] });
    assert.equal(readFileSync(join(home.workspace, 'a.txt'), 'utf8'), 'tidy\n', results.map((r) => r.content).join('\n---\n'));
    assert.doesNotMatch(results[0]!.content, /SyntaxError/);
    assert.match(results[1]!.content, /SyntaxError: Unexpected token/);
    assert.ok(!existsSync(join(home.workspace, 'err.txt')), 'the hook cleans up after itself');
  });

  it('audit every command to a file: one JSON line per command, in the hook data folder the agent cannot write', async () => {
    const { sessionId } = await turn('audit-every-command.json', [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo one' } }] }, { tool_calls: [{ name: 'bash', arguments: { command: 'ls' } }] }, { text: 'done' }], { auto_approve: ['bash'] });
    const lines = readFileSync(join(home.dir, 'hook-data', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { at: string; session: string; agent: string; command: { command: string } });
    assert.deepEqual(lines.map((l) => l.command.command), ['echo one', 'ls']);
    assert.ok(lines.every((l) => l.session === sessionId && l.agent === 'a' && /^\d{4}-\d\d-\d\dT/.test(l.at)));
  });
});
