import assert from 'node:assert/strict';
import { classifyTool, FREE_TOOLS, SHELL_TOOLS, ALWAYS_GATED_TOOLS, OUTSIDE_CONTENT_TOOLS } from '../../../src/core/permissions/tool-classes.js';
import { restrictedRefusal } from '../../../src/core/permissions/restricted.js';
import { summarizeCall } from '../../../src/core/permissions/summary.js';
import { policyOf, TOOL_POLICIES, type BuiltinToolName, type ToolPolicy } from '../../../src/core/permissions/tool-policy.js';
import { ROUTING_TOOLS } from '../../../src/core/routing/tools.js';
import { BUILTIN_TOOLS } from '../../../src/core/tools/registry.js';

/*
 * The compile check: `npm run typecheck` fails here if a built-in tool could lack its row (the
 * table's type is keyed by the names the tools' definitions carry), or if a name that is no
 * built-in tool could have one.
 */
const { read_file: _dropped, ...withoutReadFile } = TOOL_POLICIES;
// @ts-expect-error a table without read_file's row is not a table of every built-in tool
const incomplete: Record<BuiltinToolName, ToolPolicy> = withoutReadFile;
// @ts-expect-error a row for a tool that does not exist is refused too
const extra: Record<BuiltinToolName, ToolPolicy> = { ...TOOL_POLICIES, deploy_now: TOOL_POLICIES.bash };
void [_dropped, incomplete, extra];

describe("the tools' policy table", () => {
  it('has one row per built-in and routing tool, and nothing else', () => {
    const names = [...BUILTIN_TOOLS, ...ROUTING_TOOLS].map((t) => t.name).sort();
    assert.deepEqual(Object.keys(TOOL_POLICIES).sort(), names);
  });

  it('gives the barrier classes, the Restricted Mode rule and the outside-content flag they are documented with', () => {
    assert.deepEqual([...FREE_TOOLS].sort(), ['list_dir', 'load_skill', 'memory_search', 'read_file', 'remember', 'send_to_agent', 'web_search']);
    assert.deepEqual([...SHELL_TOOLS].sort(), ['bash', 'run_script']);
    assert.deepEqual([...ALWAYS_GATED_TOOLS].sort(), ['edit_file', 'set_route', 'switch_agent', 'write_file']);
    assert.deepEqual(OUTSIDE_CONTENT_TOOLS, ['web_search']);
    const runsRestricted = Object.keys(TOOL_POLICIES).filter((t) => restrictedRefusal(t, false) === null).sort();
    assert.deepEqual(runsRestricted, ['list_dir', 'load_skill', 'memory_search', 'read_file', 'send_to_agent', 'switch_agent', 'web_search']);
  });

  it('an MCP tool, a plugin tool and an unknown name get their policy from one function of the descriptor', () => {
    assert.deepEqual(policyOf('mcp__docs__search'), { barrier: 'gated', restricted: 'refused', outsideContent: true, plan: 'changes', known: true });
    assert.equal(policyOf({ name: 'mcp__docs__search', readOnlyHint: true }).plan, 'reads');
    assert.equal(policyOf({ name: 'deploy_now', readOnlyHint: true }).plan, 'changes', 'a hint counts only for an MCP tool');
    for (const unknown of ['deploy_now', 'constructor', 'toString', '__proto__']) {
      assert.deepEqual(policyOf(unknown), { barrier: 'gated', restricted: 'refused', outsideContent: false, plan: 'changes', known: false }, unknown);
      assert.deepEqual(classifyTool(unknown), { kind: 'gated', known: false }, unknown);
      assert.notEqual(restrictedRefusal(unknown, false), null, unknown);
    }
  });

  it("the approval prompt's sentence comes from the row, and a call of the wrong shape is shown as it is", () => {
    assert.equal(summarizeCall('a', 'bash', { command: 'ls -la' }, '/w'), 'Run a shell command in /w:\n  ls -la');
    assert.equal(summarizeCall('a', 'run_script', { program: 'node', argv: ['x y.js'] }, '/w'), "Run a program in /w:\n  node 'x y.js'");
    assert.equal(summarizeCall('a', 'write_file', { path: 'n.txt', content: 'abc' }, '/w'), 'Write the file n.txt (3 characters), relative to /w');
    assert.equal(summarizeCall('a', 'edit_file', { path: 'n.txt', edits: [{}, {}] }, '/w'), 'Edit the file n.txt (2 search/replace blocks), relative to /w');
    assert.equal(summarizeCall('a', 'switch_agent', { target: 'b' }, '/w'), 'Hand the conversation over to b from the next message');
    assert.equal(summarizeCall('a', 'set_route', { to: 'b', action: 'deny' }, '/w'), 'Remove the route a → b (writes config.json)');
    assert.match(summarizeCall('a', 'bash', { cmd: 'ls' }, '/w'), /^Call bash with /);
    assert.match(summarizeCall('a', 'constructor', {}, '/w'), /^Call constructor with /);
  });
});
