/**
 * A tool's JSON Schema (what a model's request carries) is made when a provider reads it, not for
 * every turn: the mock model never reads it, and converting schemas was among the larger costs of a
 * short `pepe run`. What it gives is what it gave before, a fresh copy for each turn.
 */
import assert from 'node:assert/strict';
import * as z from '../../../src/core/zod.js';
import { defineTool } from '../../../src/core/tools/tool.js';
import { BUILTIN_TOOLS, ToolRegistry } from '../../../src/core/tools/registry.js';

describe("a tool's JSON Schema, made when read", () => {
  it('is not made by spec(): a schema that cannot be converted fails only when read', () => {
    // A bigint has no JSON Schema: converting it throws, so the throw shows when it happens.
    const tool = defineTool({ name: 'odd', description: 'x', input: z.object({ n: z.bigint() }), execute: async () => ({ content: '' }) });
    const spec = ToolRegistry.spec(tool);
    assert.equal(spec.name, 'odd');
    assert.throws(() => spec.inputSchema);
  });

  it('gives the converted schema, the same object for one spec and a separate copy for each spec', () => {
    for (const tool of BUILTIN_TOOLS) {
      const a = ToolRegistry.spec(tool);
      const b = ToolRegistry.spec(tool);
      const expected = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
      delete expected.$schema;
      assert.deepEqual(a.inputSchema, expected, tool.name);
      assert.equal(a.inputSchema, a.inputSchema, 'one object for one spec (a provider may adapt it)');
      assert.notEqual(a.inputSchema, b.inputSchema, 'another spec gets its own copy');
      (a.inputSchema as { type?: string }).type = 'changed';
      assert.deepEqual(b.inputSchema, expected, 'a change to one copy reaches no other');
      assert.deepEqual(JSON.parse(JSON.stringify(b)), { name: tool.name, description: tool.description, inputSchema: expected }, 'serialised with its schema');
    }
  });
});
