/**
 * Restricted Mode (issue 12): in an untrusted workspace no tool that runs code or writes runs at
 * all — not even one the agent pre-approved, not after asking — while reading and listing still work.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRestrictedRefusal, restrictedRefusal } from '../../../src/core/permissions/restricted.js';
import { collectEvents, script, ScriptedPrompter } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

describe('Restricted Mode', () => {
  it('refuses everything but reading, listing, searching and consulting; plugin and unknown tools included', () => {
    for (const tool of ['read_file', 'list_dir', 'memory_search', 'web_search', 'send_to_agent', 'switch_agent']) assert.equal(restrictedRefusal(tool, false), null, tool);
    for (const tool of ['bash', 'run_script', 'write_file', 'remember', 'set_route', 'some_plugin_tool', 'frobnicate']) {
      const text = restrictedRefusal(tool, false);
      assert.ok(text && isRestrictedRefusal(text), tool);
      assert.match(text!, /trust the folder/i);
    }
    for (const tool of ['bash', 'write_file', 'frobnicate']) assert.equal(restrictedRefusal(tool, true), null);
  });

  describe('through a turn', () => {
    let home: TempHome;
    beforeEach(() => {
      home = new TempHome();
    });
    afterEach(() => home.cleanup());

    it('an untrusted workspace: bash (auto-approved), write_file and an unknown tool never run and nobody is asked; list_dir runs', async () => {
      const ws = join(home.dir, 'ws');
      mkdirSync(ws);
      writeFileSync(join(ws, 'README.md'), 'hi');
      const model = script(home, 'a', [
        { tool_calls: [{ name: 'bash', arguments: { command: 'touch pwned-by-bash' } }, { name: 'write_file', arguments: { path: 'pwned.txt', content: 'x' } }, { name: 'list_dir', arguments: {} }] },
        { text: 'done' },
      ]);
      home.writeConfig({ agents: { a: { model, tools: ['bash', 'write_file', 'list_dir'], auto_approve: ['bash', 'write_file'] } } });
      const prompter = new ScriptedPrompter([]);
      const untrusted = await home.pepe({ workspace: ws, prompter, trusted: false });
      const { events, onEvent } = collectEvents();
      const result = await untrusted.run({ agent: 'a', text: 'go', onEvent, personPresent: true });
      assert.equal(result.status, 'ok', result.error);
      const results = events.filter((e) => e.type === 'tool_result') as Array<{ name: string; content: string; isError: boolean }>;
      assert.deepEqual(results.map((r) => [r.name, r.isError, isRestrictedRefusal(r.content)]), [['bash', true, true], ['write_file', true, true], ['list_dir', false, false]]);
      assert.equal(results[2]!.content, 'README.md');
      assert.deepEqual(prompter.requests, [], 'somebody was asked');
      assert.ok(!existsSync(join(ws, 'pwned-by-bash')) && !existsSync(join(ws, 'pwned.txt')));

      // The same turn in a trusted workspace runs the pre-approved command (the check is not vacuous).
      const trusted = await home.pepe({ workspace: ws, prompter: new ScriptedPrompter([{ kind: 'deny' }]), trusted: true });
      await trusted.run({ agent: 'a', text: 'go', personPresent: true });
      assert.ok(existsSync(join(ws, 'pwned-by-bash')), 'bash did not run in a trusted workspace');
    });
  });
});
