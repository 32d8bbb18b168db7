import { lstatSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as z from '../zod.js';
import { MCP_SERVER_NAME, McpServerConfig } from '../config/mcp-servers.js';
import { parseJsonc } from './jsonc.js';
import { contentHash } from './trust-store.js';
import { lazySchema } from '../lazy-schema.js';
import { MCP_INPUT_PREFIX } from '../secrets/scrub.js';

/**
 * MCP servers configured for other tools (issue 24): VS Code's `mcp.json` (the workspace's
 * `.vscode/mcp.json` and the user's profile one: `servers`, `inputs`) and a project's `.mcp.json`
 * (Claude Code's `mcpServers`). Each entry becomes a Pepe server entry with only what such a file
 * can say (command, args, env, url, headers, transport): never extra folders, the network for a
 * local server, or pre-approval, which only the person's config.json grants.
 */

export type ExternalMcpOrigin = 'vscode-workspace' | 'vscode-user' | 'claude-project';

export interface McpInput {
  id: string;
  description: string;
  password: boolean;
  /** The environment variable the value is taken from (the CLI), or set under (VS Code's secret storage). */
  variable: string;
}

export interface ExternalMcpServer {
  /** The name as Pepe uses it (the file's name, with characters Pepe does not allow replaced). */
  name: string;
  /** The name as written in the file. */
  original: string;
  file: string;
  /** The file as shown to the person. */
  display: string;
  origin: ExternalMcpOrigin;
  /** The user's own VS Code configuration needs no acceptance; a workspace's does. */
  personal: boolean;
  server: McpServerConfig | null;
  /** The `${input:…}` values this server needs. */
  inputs: McpInput[];
  errors: string[];
  warnings: string[];
  hash: string;
}

export const EXTERNAL_ORIGIN_LABELS: Record<ExternalMcpOrigin, string> = {
  'vscode-workspace': 'VS Code workspace',
  'vscode-user': 'VS Code user',
  'claude-project': 'Claude Code project',
};

const MAX_FILE_BYTES = 1024 * 1024;

/** The variable an input's value lives in: `${input:api-key}` → PEPE_MCP_INPUT_API_KEY (a secret: secrets/scrub.ts). */
export function inputVariable(id: string): string {
  return `${MCP_INPUT_PREFIX}${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** Where the CLI looks for the user's VS Code MCP configuration (the extension passes its own profile's). */
export function defaultVscodeUserMcp(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Code', 'User', 'mcp.json');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Code', 'User', 'mcp.json');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'Code', 'User', 'mcp.json');
}

/**
 * The CLI's choice: $PEPE_VSCODE_USER_MCP when set (empty: none), else VS Code's default place.
 * (The extension passes the file of the profile it runs in.)
 */
export function cliVscodeUserMcp(env: NodeJS.ProcessEnv): string | null {
  const set = env.PEPE_VSCODE_USER_MCP;
  if (set !== undefined) return set === '' ? null : set;
  return defaultVscodeUserMcp(env);
}

const Input = lazySchema(() => z.looseObject({ id: z.string().check(z.minLength(1)), type: z.string(), description: z.optional(z.string()), password: z.optional(z.boolean()) }));
const Entry = lazySchema(() =>
  z.looseObject({
    type: z.optional(z.enum(['stdio', 'http', 'sse'])),
    command: z.optional(z.string().check(z.minLength(1))),
    args: z.optional(z.array(z.string())),
    env: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
    url: z.optional(z.string()),
    headers: z.optional(z.record(z.string(), z.string())),
  }),
);
const KNOWN = new Set(['type', 'command', 'args', 'env', 'url', 'headers']);

export interface ExternalMcpOptions {
  workspace: string | null;
  /** The user's VS Code `mcp.json`; null to skip it. */
  vscodeUserFile: string | null;
}

export function discoverExternalMcp(opts: ExternalMcpOptions): ExternalMcpServer[] {
  const out: ExternalMcpServer[] = [];
  if (opts.vscodeUserFile) out.push(...readFile(opts.vscodeUserFile, opts.vscodeUserFile, 'vscode-user', null));
  if (opts.workspace) {
    out.push(...readFile(join(opts.workspace, '.vscode', 'mcp.json'), '.vscode/mcp.json', 'vscode-workspace', opts.workspace));
    out.push(...readFile(join(opts.workspace, '.mcp.json'), '.mcp.json', 'claude-project', opts.workspace));
  }
  return out;
}

function readFile(file: string, display: string, origin: ExternalMcpOrigin, workspace: string | null): ExternalMcpServer[] {
  let text: string;
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return [broken(file, display, origin, 'not read: not a regular file of at most 1 MB')];
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    return [broken(file, display, origin, `cannot read: ${(e as Error).message}`)];
  }
  let doc: unknown;
  try {
    doc = parseJsonc(text);
  } catch (e) {
    return [broken(file, display, origin, `not valid JSON: ${(e as Error).message}`)];
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return [broken(file, display, origin, 'the top level must be an object')];
  const d = doc as Record<string, unknown>;
  const servers = (origin === 'claude-project' ? d.mcpServers : d.servers) ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return [broken(file, display, origin, `"${origin === 'claude-project' ? 'mcpServers' : 'servers'}" must be an object`)];
  const inputs = new Map<string, z.infer<typeof Input>>();
  for (const i of Array.isArray(d.inputs) ? d.inputs : []) {
    const p = Input.safeParse(i);
    if (p.success) inputs.set(p.data.id, p.data);
  }
  return Object.entries(servers as Record<string, unknown>).map(([original, raw]) => convert(original, raw, { file, display, origin, workspace, inputs }));
}

function broken(file: string, display: string, origin: ExternalMcpOrigin, error: string): ExternalMcpServer {
  return { name: '(file)', original: '(file)', file, display, origin, personal: origin === 'vscode-user', server: null, inputs: [], errors: [error], warnings: [], hash: '' };
}

interface Where {
  file: string;
  display: string;
  origin: ExternalMcpOrigin;
  workspace: string | null;
  inputs: Map<string, z.infer<typeof Input>>;
}

/** A Pepe server name from another tool's: runs of other characters become '-', at most 32. */
export function pepeServerName(original: string): string {
  const cleaned = original.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32).replace(/-+$/, '');
  return MCP_SERVER_NAME.test(cleaned) ? cleaned : 'server';
}

function convert(original: string, raw: unknown, w: Where): ExternalMcpServer {
  const name = pepeServerName(original);
  const errors: string[] = [];
  const warnings: string[] = [];
  const needed = new Map<string, McpInput>();
  const hashed = { name: original, entry: raw, inputs: [] as unknown[] };
  const base = { name, original, file: w.file, display: w.display, origin: w.origin, personal: w.origin === 'vscode-user' };
  if (name !== original) warnings.push(`named "${name}" here (Pepe's server names use letters, digits and single '-' or '_')`);
  const parsed = Entry.safeParse(raw);
  if (!parsed.success) {
    errors.push(parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; '));
    return { ...base, server: null, inputs: [], errors, warnings, hash: contentHash(JSON.stringify(hashed)) };
  }
  const e = parsed.data;
  for (const k of Object.keys(e)) if (!KNOWN.has(k)) warnings.push(`"${k}" is ignored`);
  // `${input:id}`, `${workspaceFolder}`, `${userHome}`, `${env:NAME}` → what Pepe resolves.
  const sub = (value: string): string =>
    value.replace(/\$\{([^}]+)\}/g, (whole, ref: string) => {
      if (ref === 'workspaceFolder') {
        if (w.workspace) return w.workspace;
        errors.push('${workspaceFolder} is used in the user configuration, where there is no workspace');
        return whole;
      }
      if (ref === 'userHome') return homedir();
      if (ref.startsWith('env:')) return `\${${ref.slice(4)}}`;
      if (ref.startsWith('input:')) {
        const id = ref.slice(6);
        const input = w.inputs.get(id);
        if (!input) errors.push(`\${input:${id}} names no entry of "inputs"`);
        else if (input.type !== 'promptString') errors.push(`\${input:${id}} is a ${input.type}; only promptString inputs are supported`);
        else {
          needed.set(id, { id, description: input.description ?? id, password: input.password === true, variable: inputVariable(id) });
          hashed.inputs.push(input);
        }
        return `\${${inputVariable(id)}}`;
      }
      // `${NAME}` (Claude Code's environment references) stays as Pepe's own reference.
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(ref)) return whole;
      errors.push(`\${${ref}} is not supported here`);
      return whole;
    });
  const remote = e.type === 'http' || e.type === 'sse' || (!e.type && !!e.url);
  const candidate: Record<string, unknown> = remote
    ? { url: sub(e.url ?? ''), ...(e.headers ? { headers: mapValues(e.headers, sub) } : {}), ...(e.type === 'sse' ? { transport: 'sse' } : e.type === 'http' ? { transport: 'streamable' } : {}) }
    : {
        command: sub(e.command ?? ''),
        ...(e.args ? { args: e.args.map(sub) } : {}),
        ...(e.env ? { env: mapValues(Object.fromEntries(Object.entries(e.env).filter(([, v]) => v !== null).map(([k, v]) => [k, String(v)])), sub) } : {}),
      };
  const server = McpServerConfig.safeParse(candidate);
  if (!server.success) errors.push(server.error.issues.map((i) => i.message).join('; '));
  return { ...base, server: errors.length || !server.success ? null : server.data, inputs: [...needed.values()], errors, warnings, hash: contentHash(JSON.stringify(hashed)) };
}

function mapValues(record: Record<string, string>, f: (v: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}
