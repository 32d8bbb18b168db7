import * as z from '../zod.js';
import { errorMessage } from '../errors.js';
import { untrustedBlock, type Tool, type ToolContext, type ToolOutcome } from '../tools/tool.js';
import { capBytes } from './tool-adapter.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * Tools the editor already knows (VS Code's `vscode.lm.tools`: its own MCP servers' tools and other
 * extensions' tools), granted to an agent by `"vscode:<tool>"` in its `mcp` list. The core only sees
 * this interface; the extension provides it. Like MCP tools they are asked first and their results
 * are outside content.
 */

export const HOST_TOOL_ENTRY = 'vscode:';
export const HOST_TOOL_PREFIX = 'vscode__';
const MODEL_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface HostToolInfo {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
}

export interface HostToolSource {
  list(): HostToolInfo[];
  invoke(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<{ text: string; isError?: boolean }>;
}

export function hostToolName(tool: string): string {
  return `${HOST_TOOL_PREFIX}${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

const Args = lazySchema(() => z.pipe(z.transform((v: unknown) => (v === undefined || v === null ? {} : v)), z.record(z.string(), z.unknown())));

export function hostTool(info: HostToolInfo, source: HostToolSource, options: { timeoutMs: number; maxBytes: number }): (Tool<Record<string, unknown>> & { jsonSchema: Record<string, unknown> }) | null {
  const name = hostToolName(info.name);
  if (!MODEL_TOOL_NAME.test(name)) return null;
  const schema: Record<string, unknown> = { type: 'object', properties: {}, ...(info.inputSchema ?? {}) };
  delete schema.$schema;
  return {
    name,
    description: `[a VS Code tool] ${info.description.slice(0, 2000)}`,
    input: Args as unknown as z.ZodMiniType<Record<string, unknown>>,
    jsonSchema: schema,
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
      const own = new AbortController();
      const forward = () => own.abort();
      ctx.signal.addEventListener('abort', forward, { once: true });
      const timer = setTimeout(() => own.abort(), options.timeoutMs);
      try {
        const r = await Promise.race([
          source.invoke(info.name, args, own.signal),
          new Promise<never>((_, reject) => own.signal.addEventListener('abort', () => reject(new Error(ctx.signal.aborted ? 'cancelled' : `no answer within ${options.timeoutMs} ms`)), { once: true })),
        ]);
        const source_ = `VS Code tool ${info.name}`;
        ctx.markOutsideContent(source_);
        return { content: untrustedBlock(source_, capBytes(r.text, options.maxBytes)), isError: r.isError === true, untrusted: true };
      } catch (e) {
        return { content: `VS Code tool ${info.name} failed: ${errorMessage(e)}`, isError: true };
      } finally {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', forward);
      }
    },
  };
}
