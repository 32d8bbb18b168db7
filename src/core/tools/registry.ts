import * as z from '../zod.js';
import type { AgentConfig } from '../config/schema.js';
import type { ToolSpec } from '../models/provider.js';
import { editFileTool } from './edit-file.js';
import { listDir, readFileTool, writeFileTool } from './files.js';
import { loadSkill } from './load-skill.js';
import { memorySearch, remember } from './memory.js';
import { bash, runScript } from './shell.js';
import type { Tool } from './tool.js';
import { webSearch } from './web-search.js';

const TOOLS = [memorySearch, remember, webSearch, bash, runScript, readFileTool, listDir, writeFileTool, editFileTool, loadSkill] as const;

/** The built-in tools (spec 4.3); routing tools are added by the routing module. */
export const BUILTIN_TOOLS: Tool<any>[] = [...TOOLS];

/** Their names, as their definitions spell them: the tools' policy table (permissions/tool-policy.ts) needs a row for each. */
export type RegistryToolName = (typeof TOOLS)[number]['name'];

export class ToolRegistry {
  private tools = new Map<string, Tool<any>>();

  constructor(tools: Tool<any>[] = BUILTIN_TOOLS) {
    for (const t of tools) this.add(t);
  }

  add(tool: Tool<any>): void {
    this.tools.set(tool.name, tool);
  }

  get(name: string): Tool<any> | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Spec 4.3: an agent sees only the tools in its `tools` list (absent = every built-in tool). */
  visibleTo(agent: AgentConfig, filter?: (name: string) => boolean): Tool<any>[] {
    const allowed = agent.tools ? new Set(agent.tools) : null;
    return [...this.tools.values()].filter((t) => (allowed ? allowed.has(t.name) : true) && (!filter || filter(t.name)));
  }

  static spec(tool: Tool<any>): ToolSpec {
    // A tool from outside (an MCP server's) carries the JSON Schema its server gave: passed on as it is.
    const given = (tool as { jsonSchema?: Record<string, unknown> }).jsonSchema;
    if (given) return { name: tool.name, description: tool.description, inputSchema: given };
    const input = tool.input;
    let copy: Record<string, unknown> | undefined;
    return {
      name: tool.name,
      description: tool.description,
      // Made when a provider reads it (a model's HTTP request does; the mock model does not):
      // converting a tool's schema is among the larger costs of a short `pepe run`. A copy: a
      // provider may adapt what it sends; the next turn gets the schema as it was.
      get inputSchema() {
        return (copy ??= structuredClone(jsonSchemaOf(input)));
      },
    };
  }
}

/** The JSON Schema of a tool's input, built once. */
function jsonSchemaOf(input: z.core.$ZodType): Record<string, unknown> {
  let schema = schemas.get(input);
  if (!schema) {
    schema = z.toJSONSchema(input, { io: 'input' }) as Record<string, unknown>;
    delete schema.$schema;
    schemas.set(input, schema);
  }
  return schema;
}

/** The JSON Schema of each tool's input, built once (a turn wraps its tools, their input stays the same). */
const schemas = new WeakMap<z.core.$ZodType, Record<string, unknown>>();
