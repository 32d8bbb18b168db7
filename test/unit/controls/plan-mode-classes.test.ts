import assert from 'node:assert/strict';
import { PLAN_MODE_CLASSES, planClassOf, planModeRefusal } from '../../../src/core/permissions/plan-mode.js';
import { newRunState } from '../../../src/core/permissions/run-state.js';
import { ROUTING_TOOLS } from '../../../src/core/routing/tools.js';
import { BUILTIN_TOOLS } from '../../../src/core/tools/registry.js';
import { call, harness, makeTempDir, removeDir, ScriptedPrompter } from '../permissions/helpers.js';

const planRun = () => ({ ...newRunState(), planMode: true });

describe('plan mode: the class of every built-in tool', () => {
  it('names every built-in and routing tool, and nothing else', () => {
    const names = [...BUILTIN_TOOLS, ...ROUTING_TOOLS].map((t) => t.name).sort();
    assert.deepEqual(Object.keys(PLAN_MODE_CLASSES).sort(), names);
  });

  it('gives each tool the class it is documented with', () => {
    assert.deepEqual(PLAN_MODE_CLASSES, {
      read_file: 'reads',
      list_dir: 'reads',
      memory_search: 'reads',
      remember: 'reads',
      web_search: 'reads',
      load_skill: 'reads',
      send_to_agent: 'consults',
      bash: 'command',
      run_script: 'command',
      write_file: 'changes',
      edit_file: 'changes',
      switch_agent: 'changes',
      set_route: 'changes',
    });
  });

  it('a plugin tool or an unknown name is refused; an MCP tool only passes with its read-only hint', () => {
    assert.equal(planClassOf('deploy_now'), 'changes');
    assert.equal(planClassOf('constructor'), 'changes', 'no prototype name sneaks through');
    assert.equal(planClassOf('mcp__docs__search'), 'changes');
    assert.equal(planClassOf('mcp__docs__search', true), 'reads');
    assert.match(planModeRefusal('deploy_now', { harmlessCommand: false, readOnlyHint: false }) ?? '', /^Plan mode is on: deploy_now was not run/);
    assert.equal(planModeRefusal('bash', { harmlessCommand: true, readOnlyHint: false }), null);
    assert.match(planModeRefusal('bash', { harmlessCommand: false, readOnlyHint: false }) ?? '', /only commands that only read/);
  });
});

describe('plan mode at the barrier', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => removeDir(dir));

  // Failed against bfd1589: without plan mode a pre-approved write ran (by auto_approve).
  it('refuses writes, edits and risky commands even when pre-approved or bypassed, asking nobody', async () => {
    const prompter = new ScriptedPrompter([]);
    const h = harness(dir, { prompter });
    h.barrier.grants.bypass('billing');
    const cases: Array<[string, unknown]> = [
      ['write_file', { path: 'a.txt', content: 'x' }],
      ['edit_file', { path: 'a.txt', edits: [{ search: 'a', replace: 'b' }] }],
      ['bash', { command: 'echo hi > out.txt' }],
      ['bash', { command: 'curl https://example.com' }],
      ['run_script', { language: 'python', code: 'open("x","w")' }],
      ['switch_agent', { target: 'other' }],
      ['set_route', { to: 'other' }],
      ['my_plugin_tool', {}],
    ];
    for (const [tool, args] of cases) {
      const out = await h.barrier.check(call(tool, args, { config: { auto_approve: '*' }, run: planRun(), sandbox: { confined: true } }));
      assert.equal(out.allowed, false, tool);
      assert.equal(out.by, 'plan_mode', tool);
      assert.match(!out.allowed ? out.reason : '', /^Plan mode is on/);
    }
    assert.equal(prompter.asked.length, 0, 'nobody was asked');
  });

  it('lets reads and harmless commands go on to the usual rules', async () => {
    const h = harness(dir, { prompter: new ScriptedPrompter([]) });
    for (const [tool, args] of [['read_file', { path: 'a' }], ['list_dir', { path: '.' }], ['memory_search', { query: 'x' }], ['bash', { command: 'ls -la' }]] as const) {
      const out = await h.barrier.check(call(tool, args, { run: planRun(), sandbox: { confined: true } }));
      assert.equal(out.allowed, true, tool);
    }
  });

  it('an MCP tool that says it only reads still goes through the barrier: asked, or parked with nobody there', async () => {
    const prompter = new ScriptedPrompter([{ kind: 'deny' }]);
    const asked = harness(dir, { prompter });
    const withHint = { readOnlyHint: true, notes: ['the MCP server says it only reads (its own claim, not checked)'] };
    const out = await asked.barrier.check(call('mcp__docs__search', { q: 'x' }, { run: planRun(), facts: withHint }));
    assert.equal(prompter.asked.length, 1, 'the hint made nothing run unasked');
    assert.equal(out.by, 'user');
    const nobody = harness(dir);
    const parked = await nobody.barrier.check(call('mcp__docs__search', { q: 'x' }, { run: planRun(), facts: withHint }));
    assert.equal(parked.by, 'no_person');
    const noHint = await nobody.barrier.check(call('mcp__docs__write', { q: 'x' }, { config: { auto_approve: ['mcp__docs__write'] }, run: planRun() }));
    assert.equal(noHint.by, 'plan_mode', 'without the hint an MCP tool is refused even when pre-approved');
  });
});

describe('plan mode: an MCP tool carries its read-only hint as a fact', () => {
  it('resolve says readOnlyHint only when the server said so', async () => {
    const { mcpTool } = await import('../../../src/core/mcp/tool-adapter.js');
    const caller = { callTool: async () => ({ content: [] }), maxResultBytes: () => 1000, takeNotices: () => [] };
    const ro = mcpTool('docs', { name: 'search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } } as never, caller as never)!;
    const rw = mcpTool('docs', { name: 'write', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } } as never, caller as never)!;
    assert.equal((await ro.resolve!({}, {} as never)).readOnlyHint, true);
    assert.equal((await rw.resolve!({}, {} as never)).readOnlyHint, undefined);
  });
});
