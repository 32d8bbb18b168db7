import * as z from '../zod.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../errors.js';
import { untrustedBlock, type Tool, type ToolContext, type ToolOutcome } from '../tools/tool.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../config/mcp-servers.js';
import { McpCallError, type McpToolInfo } from './connection.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * An MCP server's tool as a Pepe tool (`mcp__<server>__<tool>`): the server's own JSON Schema goes
 * to the model, every call goes through the tool invoker (and so the barrier), and every result,
 * error results included, is outside content.
 */

export const MCP_PREFIX = 'mcp__';
/** Model providers accept tool names of at most 64 characters from this set. */
const MODEL_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function mcpToolName(server: string, tool: string): string {
  return `${MCP_PREFIX}${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** `mcp__<server>__<tool>` → its parts (the tool part as sanitised in the name); null for other names. */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(MCP_PREFIX)) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const at = rest.indexOf('__');
  if (at <= 0 || at + 2 >= rest.length) return null;
  return { server: rest.slice(0, at), tool: rest.slice(at + 2) };
}

/** A Pepe tool that carries its JSON Schema as the server gave it (the registry passes it to the model). */
export interface McpTool extends Tool<Record<string, unknown>> {
  jsonSchema: Record<string, unknown>;
  mcp: { server: string; tool: string; readOnly: boolean; annotations: string[] };
}

export interface McpCaller {
  callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  maxResultBytes(server: string): number;
  takeNotices(server: string): string[];
}

// Arguments are an object; the server checks them against its own schema (a mismatch comes back as an error result).
const Args = lazySchema(() => z.pipe(z.transform((v: unknown) => (v === undefined || v === null ? {} : v)), z.record(z.string(), z.unknown())));

/** What the tool's annotations say about it, in words for the model and the person (hints, never grants). */
export function annotationNotes(info: McpToolInfo): string[] {
  const a = info.annotations ?? {};
  const notes: string[] = [];
  if (a.readOnlyHint === true) notes.push('says it only reads');
  if (a.destructiveHint === true && a.readOnlyHint !== true) notes.push('says it may delete or overwrite');
  if (a.openWorldHint === true) notes.push('says it reaches outside systems');
  return notes;
}

export function mcpTool(server: string, info: McpToolInfo, caller: McpCaller): McpTool | null {
  const name = mcpToolName(server, info.name);
  if (!MODEL_TOOL_NAME.test(name)) return null;
  const schema: Record<string, unknown> = { ...(info.inputSchema as Record<string, unknown>) };
  if (schema.type !== 'object') schema.type = 'object';
  delete schema.$schema;
  const notes = annotationNotes(info);
  const description = [
    `[MCP server "${server}"${notes.length ? `; the server ${notes.join(', ')}` : ''}]`,
    (info.description ?? info.title ?? info.name).slice(0, 2000),
  ].join(' ');
  return {
    name,
    description,
    input: Args as unknown as z.ZodMiniType<Record<string, unknown>>,
    jsonSchema: schema,
    mcp: { server, tool: info.name, readOnly: info.annotations?.readOnlyHint === true, annotations: notes },
    // The annotations are shown in the approval prompt as what the server claims, nothing more.
    async resolve() {
      return {
        ...(notes.length ? { notes: [`the MCP server ${notes.join(', ')} (its own claim, not checked)`] } : {}),
        ...(info.annotations?.readOnlyHint === true ? { readOnlyHint: true } : {}),
      };
    },
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
      const source = `MCP ${server}/${info.name}`;
      let result: CallToolResult;
      // Restarts and cut-offs are told to the person as they happen, and to the model with the result.
      const noticed = () => {
        const notes = caller.takeNotices(server);
        for (const n of notes) ctx.emit({ type: 'error', path: ctx.chain, message: n, recoverable: true });
        if (!notes.length) return '';
        // A restart notice quotes why the server stopped, in the server's own words.
        ctx.markOutsideContent(`MCP ${server}`);
        return `${untrustedBlock(`MCP ${server} (notice)`, notes.join('\n'))}\n`;
      };
      try {
        result = await caller.callTool(server, info.name, args, ctx.signal);
      } catch (e) {
        // A failure of the call (deadline, crash, flood) is the tool's error; the turn goes on.
        const text = e instanceof McpCallError ? e.message : `MCP call failed: ${errorMessage(e)}`;
        // Only a deadline or a cancellation is Pepe's own wording; any other failure may carry the
        // server's words (its error message, its last line of error output): outside content too.
        if (e instanceof McpCallError && (e.kind === 'deadline' || e.kind === 'cancelled')) return { content: noticed() + text, isError: true };
        ctx.markOutsideContent(source);
        return { content: noticed() + untrustedBlock(source, text), isError: true, untrusted: true };
      }
      ctx.markOutsideContent(source);
      const body = capBytes(resultText(result), caller.maxResultBytes(server));
      return { content: noticed() + untrustedBlock(source, body), isError: result.isError === true, untrusted: true };
    },
  };
}

/** A tool result as text: text blocks as they are, other blocks described, structured content as JSON. */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  const texts = new Set<string>();
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        texts.add(block.text.trim());
        break;
      case 'image':
      case 'audio':
        parts.push(`[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`);
        break;
      case 'resource': {
        const r = block.resource;
        parts.push('text' in r && typeof r.text === 'string' ? `[resource ${r.uri}]\n${r.text}` : `[resource ${r.uri}${r.mimeType ? `, ${r.mimeType}` : ''}]`);
        break;
      }
      case 'resource_link':
        parts.push(`[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}]`);
        break;
      default:
        parts.push(`[${(block as { type: string }).type} content]`);
    }
  }
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent, null, 2);
    const compact = JSON.stringify(result.structuredContent);
    if (!texts.has(json.trim()) && !texts.has(compact)) parts.push(`structured result:\n${json}`);
  }
  if (result.isError === true && parts.length === 0) parts.push('the tool reported an error without details');
  return parts.join('\n');
}

/** Cut to `max` bytes of UTF-8 (on a character boundary), saying how much was left out. */
export function capBytes(text: string, max: number = DEFAULT_MAX_RESULT_BYTES): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return text;
  let end = max;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return `${buf.subarray(0, end).toString('utf8')}\n[cut: the result was ${buf.length} bytes; only the first ${end} are shown]`;
}
