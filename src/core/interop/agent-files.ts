import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import * as z from '../zod.js';
import { sortProblems, type Problem } from '../cores/problems.js';
import { describeIssue } from '../config/problems.js';
import { AgentConfig, NAME_PATTERN, SlotOverrides } from '../config/schema.js';
import { AgentMcpSelection } from '../config/mcp-servers.js';
import { contentHash } from './trust-store.js';
import { parseFrontMatter } from './front-matter.js';
import { mapForeignTools } from './foreign-tools.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * Agents defined as Markdown files (issue 24): YAML front matter for the settings, the body as the
 * system prompt. Personal ones in `$PEPE_HOME/agents/<name>.md`; project ones in the workspace's
 * `.pepe/agents/<name>.md`, and the subagent files of VS Code (`.github/agents/*.agent.md`) and
 * Claude Code (`.claude/agents/*.md`), whose fields are mapped (what has no meaning here is a warning).
 */

export type AgentFileOrigin = 'home' | 'workspace';
export type AgentFileFormat = 'pepe' | 'vscode' | 'claude';

export interface AgentFile {
  name: string;
  /** Absolute path. */
  file: string;
  /** Where it is shown from: relative to the workspace (workspace files) or to $PEPE_HOME. */
  display: string;
  origin: AgentFileOrigin;
  format: AgentFileFormat;
  description: string | null;
  /** The settings, or null when the file has errors (it does not load). */
  agent: AgentConfig | null;
  errors: Problem[];
  warnings: Problem[];
  hash: string;
}

/** A file bigger than this is not read (a system prompt is not a book). */
export const MAX_AGENT_FILE_BYTES = 256 * 1024;

const list = lazySchema(() => z.array(z.string().check(z.minLength(1))));
const agentName = lazySchema(() => z.string().check(z.regex(NAME_PATTERN, { message: "an agent name uses letters, digits, '_', '-' or '.', starting with a letter or digit" })));

/** Pepe's own front matter: every field is known; anything else is an error. */
const PepeFrontMatter = lazySchema(() =>
  z.strictObject({
    name: z.optional(agentName),
    description: z.optional(z.string()),
    model: z.optional(z.string().check(z.minLength(1))),
    model_chain: z.optional(list),
    tools: z.optional(list),
    can_message: z.optional(z.array(agentName)),
    slots: z.optional(SlotOverrides),
    mcp: z.optional(AgentMcpSelection),
    project: z.optional(agentName),
    // Personal files only: approvals come from the person, never from a workspace.
    auto_approve: z.optional(z.union([z.literal('*'), list])),
    trust_untrusted_content: z.optional(z.boolean()),
  }),
);

/** Fields a workspace file may not set: they would grant approvals or lift the outside-content rule. */
const PERSONAL_ONLY = ['auto_approve', 'trust_untrusted_content'] as const;

export interface DiscoverOptions {
  workspace: string | null;
  home: string;
  /** Model ids configured in Pepe: another tool's `model` is used only when it names one. */
  models: ReadonlySet<string>;
}

export function discoverAgentFiles(opts: DiscoverOptions): AgentFile[] {
  const out: AgentFile[] = [];
  const agentsDir = join(opts.home, 'agents');
  for (const f of mdFiles(agentsDir, '.md')) out.push(readAgentFile(join(agentsDir, f), relative(opts.home, join(agentsDir, f)), 'home', 'pepe', opts.models));
  if (opts.workspace) {
    const ws = opts.workspace;
    const places: [string, string, AgentFileFormat][] = [
      ['.pepe/agents', '.md', 'pepe'],
      ['.github/agents', '.agent.md', 'vscode'],
      ['.claude/agents', '.md', 'claude'],
    ];
    for (const [dir, ext, format] of places) {
      for (const f of mdFiles(join(ws, dir), ext)) out.push(readAgentFile(join(ws, dir, f), `${dir}/${f}`, 'workspace', format, opts.models));
    }
  }
  return out;
}

function mdFiles(dir: string, ext: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(ext) && !f.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

export function readAgentFile(file: string, display: string, origin: AgentFileOrigin, format: AgentFileFormat, models: ReadonlySet<string>): AgentFile {
  const stem = basename(file).replace(format === 'vscode' ? /\.agent\.md$/ : /\.md$/, '');
  const base = { name: stem, file, display, origin, format, description: null, agent: null, warnings: [] as Problem[] };
  const at1 = (message: string): Problem => ({ file, line: 1, column: 1, message });
  let text: string;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return { ...base, errors: [at1('not a regular file (a link or a folder is not read)')], hash: '' };
    if (st.size > MAX_AGENT_FILE_BYTES) return { ...base, errors: [at1(`the file is ${st.size} bytes; an agent file has at most ${MAX_AGENT_FILE_BYTES}`)], hash: '' };
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { ...base, errors: [at1(`cannot read: ${(e as Error).message}`)], hash: '' };
  }
  const hash = contentHash(text);
  const fm = parseFrontMatter(file, text);
  if (fm.problems.length) return { ...base, errors: fm.problems, hash };
  if (!fm.data) return { ...base, errors: [at1('an agent file starts with front matter: a line "---", its fields (description: …), and "---"')], hash };
  const body = fm.body.trim();
  if (format !== 'pepe') return { ...base, ...foreignAgent(fm, body, format, models), hash };

  const parsed = PepeFrontMatter.safeParse(fm.data);
  const errors: Problem[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') for (const k of issue.keys) errors.push(fm.at([...issue.path, k], `unknown field "${k}"; an agent file knows: ${Object.keys(PepeFrontMatter.shape).join(', ')}`));
      else errors.push(fm.at(issue.path, describeIssue(issue)));
    }
  }
  if (origin === 'workspace') {
    for (const k of PERSONAL_ONLY) if (k in fm.data) errors.push(fm.at([k], `"${k}" is refused in a workspace file: approvals come only from the person (their own config.json or the approval prompt); remove this line`));
  }
  const data = parsed.success ? parsed.data : null;
  const name = data?.name ?? stem;
  const description = data?.description ?? null;
  if (errors.length || !data) return { ...base, name, description, errors: sortProblems(errors), hash };
  const { name: _n, description: _d, ...settings } = data;
  const agent = AgentConfig.parse({ ...settings, ...(body ? { system_prompt: body } : {}) });
  return { ...base, name, description, agent, errors: [], hash };
}

/** VS Code's and Claude Code's subagent files: what carries over, and a warning for the rest. */
function foreignAgent(fm: ReturnType<typeof parseFrontMatter>, body: string, format: 'vscode' | 'claude', models: ReadonlySet<string>): Pick<AgentFile, 'name' | 'description' | 'agent' | 'errors' | 'warnings'> {
  const data = fm.data!;
  const tool = format === 'vscode' ? 'VS Code' : 'Claude Code';
  const warnings: Problem[] = [];
  const errors: Problem[] = [];
  const rawName = data.name;
  const name = typeof rawName === 'string' && rawName.trim() ? rawName.trim() : basename(fm.file).replace(/(\.agent)?\.md$/, '');
  if (!NAME_PATTERN.test(name)) errors.push(fm.at(['name'], `"${name}" cannot be an agent name here: use letters, digits, '_', '-' or '.'`));
  const description = typeof data.description === 'string' ? data.description : null;
  const agent: AgentConfig = {};
  if (body) agent.system_prompt = body;
  for (const [key, value] of Object.entries(data)) {
    if (key === 'name' || key === 'description') continue;
    if (key === 'tools') {
      const names = typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
      if (!names) {
        errors.push(fm.at(['tools'], 'tools: expected a list of tool names'));
        continue;
      }
      const mapped = mapForeignTools(format, names);
      agent.tools = mapped.tools;
      if (mapped.mcp.length) agent.mcp = mapped.mcp;
      if (mapped.ignored.length) warnings.push(fm.at(['tools'], `${tool} tools with no counterpart here are left out: ${mapped.ignored.join(', ')}`));
      continue;
    }
    if (key === 'model') {
      if (typeof value === 'string' && models.has(value)) agent.model = value;
      else if (value !== 'inherit') warnings.push(fm.at(['model'], `model "${String(value)}" is not a model configured in Pepe; the agent uses the default model chain`));
      continue;
    }
    warnings.push(fm.at([key], `the ${tool} field "${key}" has no meaning in Pepe and is ignored`));
  }
  return { name, description, agent: errors.length ? null : agent, errors, warnings };
}
