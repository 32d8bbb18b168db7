import * as z from '../zod.js';

/**
 * One MCP server in the configuration (`mcp_servers.<name>`): a local one (`command`, launched over
 * stdio on first use, confined like any command) or a remote one (`url`, streamable HTTP with a
 * fallback to SSE). Credentials are `${ENV_VAR}` references resolved when the server starts; a raw
 * token is accepted (refusing would not un-leak it) and reported with a plain warning.
 */

/** No "__" inside: `mcp__<server>__<tool>` must split back into exactly one server. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;

export const McpServerName = z
  .string()
  .check(
    z.maxLength(32, { message: 'an MCP server name has at most 32 characters' }),
    z.regex(MCP_SERVER_NAME, { message: "an MCP server name uses letters and digits, with single '-' or '_' between them" }),
  );

export const McpServerConfig = z
  .looseObject({
    command: z.optional(z.string().check(z.minLength(1))),
    args: z.optional(z.array(z.string())),
    /** Extra variables for a local server; values may be `${ENV_VAR}` references. */
    env: z.optional(z.record(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'name an environment variable' })), z.string())),
    /** Folders a local server may write (besides its own data folder); everything else is read-only. */
    writable: z.optional(z.array(z.string().check(z.minLength(1)))),
    /** Folders a local server may read that it would not see otherwise (the private /tmp, hidden places). */
    readable: z.optional(z.array(z.string().check(z.minLength(1)))),
    /** A local server reaches the network only when the person allowed it for this server. */
    network: z.optional(z.boolean()),
    url: z.optional(z.url()),
    headers: z.optional(z.record(z.string(), z.string())),
    /** Left unset, a remote server negotiates (streamable HTTP, then SSE). */
    transport: z.optional(z.enum(['streamable', 'sse'])),
    /** The person pre-approved this server's tools that say they only read (the hint alone grants nothing). */
    approve_read_only: z.optional(z.boolean()),
    /** A tool call is cut off after this long (default 60 s). */
    timeout_ms: z.optional(z.int().check(z.positive())),
    /** A tool result is cut to this many bytes for the model (default 100 000). */
    max_result_bytes: z.optional(z.int().check(z.positive())),
    /** An unused server is stopped after this long (default 10 minutes). */
    idle_ms: z.optional(z.int().check(z.positive())),
    disabled: z.optional(z.boolean()),
  })
  .check(
    z.superRefine((s, ctx) => {
      if (!s.command === !s.url) ctx.addIssue({ code: 'custom', message: 'an MCP server has either "command" (local) or "url" (remote), not both and not neither' });
      if (s.url && (s.args || s.env || s.writable || s.readable || s.network !== undefined)) ctx.addIssue({ code: 'custom', message: '"args", "env", "writable", "readable" and "network" are for local servers (with "command")' });
      if (s.command && (s.headers || s.transport)) ctx.addIssue({ code: 'custom', message: '"headers" and "transport" are for remote servers (with "url")' });
      if (s.url && !/^https?:/i.test(s.url)) ctx.addIssue({ code: 'custom', message: 'an MCP server URL starts with http:// or https://' });
    }),
  );
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/**
 * Per agent: which servers (every tool) or which tools (`mcp__<server>__<tool>`) it may use.
 * Absent or empty: none.
 */
export const AgentMcpSelection = z.array(z.string().check(z.minLength(1)));

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RESULT_BYTES = 100_000;
export const DEFAULT_IDLE_MS = 10 * 60_000;

const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `${NAME}` references replaced from `env`; a missing variable is an error that names it. */
export function resolveRefs(value: string, env: NodeJS.ProcessEnv, where: string): string {
  return value.replace(REF, (_, name: string) => {
    const v = env[name];
    if (v === undefined || v === '') throw new Error(`${where} refers to \${${name}}, which is not set in the environment`);
    return v;
  });
}

export function resolveRecord(record: Record<string, string> | undefined, env: NodeJS.ProcessEnv, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(record ?? {})) out[k] = resolveRefs(v, env, `${where} ${k}`);
  return out;
}

/** The variable names a server's configuration refers to. */
export function referencedVariables(server: McpServerConfig): string[] {
  const texts = [...(server.args ?? []), ...Object.values(server.env ?? {}), ...Object.values(server.headers ?? {}), server.url ?? '', server.command ?? ''];
  return [...new Set(texts.flatMap((t) => [...t.matchAll(REF)].map((m) => m[1]!)))];
}

const SECRET_KEY = /(auth|token|secret|key|password|passwd|credential|cookie|session|bearer)/i;
const TOKEN_SHAPE = /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|glpat-[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*)\b/;
const TOKEN_FLAG = /^--?[A-Za-z-]*(token|key|secret|password|auth)[A-Za-z-]*$/i;

/** What is left of a value once its `${VAR}` references and an auth scheme word are removed. */
function literalPart(value: string): string {
  return value.replace(REF, '').replace(/^\s*(Bearer|Basic|Token|Bot)\s+/i, '').trim();
}

/**
 * Where a server's configuration holds a credential written out instead of referred to:
 * `headers.Authorization`, `env.GITHUB_TOKEN`, `args[3]`. Empty when there is none.
 */
export function rawCredentials(server: McpServerConfig): string[] {
  const found: string[] = [];
  for (const [k, v] of Object.entries(server.headers ?? {})) if ((SECRET_KEY.test(k) && literalPart(v)) || TOKEN_SHAPE.test(literalPart(v))) found.push(`headers.${k}`);
  for (const [k, v] of Object.entries(server.env ?? {})) if ((SECRET_KEY.test(k) && literalPart(v)) || TOKEN_SHAPE.test(literalPart(v))) found.push(`env.${k}`);
  const args = server.args ?? [];
  args.forEach((a, i) => {
    const afterFlag = i > 0 && TOKEN_FLAG.test(args[i - 1]!) && literalPart(a) !== '';
    const inline = /^--?[A-Za-z-]*(token|key|secret|password)[A-Za-z-]*=(.+)$/i.exec(a);
    if (afterFlag || (inline && literalPart(inline[2]!)) || TOKEN_SHAPE.test(literalPart(a))) found.push(`args[${i}]`);
  });
  if (server.url) {
    try {
      const u = new URL(server.url);
      if (u.password || (u.username && literalPart(decodeURIComponent(u.username)))) found.push('url (user info)');
      for (const [k, v] of u.searchParams) if (SECRET_KEY.test(k) && literalPart(v)) found.push(`url ?${k}=`);
    } catch {
      // The schema reports a malformed URL.
    }
  }
  return found;
}

/** The plain warning for a raw credential (shown by `pepe mcp add`, `list` and `pepe doctor`). */
export function rawCredentialWarning(server: string, where: readonly string[]): string {
  return (
    `MCP server "${server}" holds a credential written out in the configuration (${where.join(', ')}). ` +
    'Treat it as leaked: revoke it and issue a new one, put the new one in an environment variable, ' +
    'and refer to it as ${NAME} instead.'
  );
}
