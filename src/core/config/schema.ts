import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { AgentMcpSelection, McpServerConfig, McpServerName } from './mcp-servers.js';
import { SLOT_NAMES } from './slot-names.js';
import { HooksConfig } from './hooks.js';

/**
 * The one configuration file (spec 2). Every object is "loose": unknown keys survive a
 * round trip (forward compatibility) and are reported by `unknownKeys` / `pepe doctor`.
 */

export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const name = (what: string) =>
  z.string().regex(NAME_PATTERN, { message: `a ${what} name uses letters, digits, '_', '-' or '.', starting with a letter or digit` });

export const SlotName = z.enum(SLOT_NAMES);
export const SlotOverrides = z.partialRecord(SlotName, z.string().min(1));

export const Tier = z.enum(['normal', 'low_compute', 'critical', 'dead']);
export type Tier = z.infer<typeof Tier>;

export const HeartbeatConfig = z.looseObject({
  every_minutes: z.number().positive(),
  active_hours: z.string().regex(/^\d{2}:\d{2}-\d{2}:\d{2}$/, { message: 'use HH:MM-HH:MM, e.g. "09:00-18:00"' }).optional(),
  prompt: z.string().optional(),
});

/**
 * Which project instruction files (AGENTS.md, CLAUDE.md, …) an agent is given: names or globs
 * (`["AGENTS.md", ".cursor/rules/*"]`), or `false` / `"off"` for none. Absent: every file found.
 */
export const InstructionsSetting = z.union([z.literal(false), z.literal('off'), z.array(z.string().min(1))]);

export const AgentConfig = z.looseObject({
  model: z.string().min(1).optional(),
  model_chain: z.array(z.string().min(1)).optional(),
  tools: z.array(z.string().min(1)).optional(),
  can_message: z.array(name('agent')).optional(),
  slots: SlotOverrides.optional(),
  project: name('project').optional(),
  system_prompt: z.string().optional(),
  auto_approve: z.union([z.literal('*'), z.array(z.string().min(1))]).optional(),
  trust_untrusted_content: z.boolean().optional(),
  heartbeat: HeartbeatConfig.optional(),
  core: z.string().min(1).optional(),
  /** MCP servers (every tool) or tools (`mcp__<server>__<tool>`) this agent may use. */
  mcp: AgentMcpSelection.optional(),
  /** Project instruction files this agent uses (names or globs), or false / "off"; absent: its project's, else all. */
  instructions: InstructionsSetting.optional(),
  /** Conversations with this agent start in plan mode (only tools that read run) unless the person switches. */
  plan_mode: z.boolean().optional(),
  /** This agent's conversations: `max_cost` (US dollars) each, instead of the top-level one. */
  limits: z.looseObject({ max_cost: z.number().nonnegative().optional() }).optional(),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

export const ProjectConfig = z.looseObject({
  default_slots: SlotOverrides.optional(),
  /** Projects whose agents this project's agents may message (directed; routes are still needed). */
  can_message_projects: z.array(name('project')).optional(),
  spend_cap_usd: z.number().nonnegative().optional(),
  /** Project instruction files its agents use, unless an agent says otherwise. */
  instructions: InstructionsSetting.optional(),
  tier_thresholds: z
    .looseObject({
      low_compute: z.number().positive().optional(),
      critical: z.number().positive().optional(),
      dead: z.number().positive().optional(),
    })
    .optional(),
});
export type ProjectConfig = z.infer<typeof ProjectConfig>;

export const ModelConfig = z.looseObject({
  provider: z.enum(['openai', 'openai-compatible', 'anthropic', 'mock']),
  model: z.string().min(1),
  base_url: z.string().url().optional(),
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'name an environment variable, e.g. "OPENAI_API_KEY"' }).optional(),
  context_window: z.number().int().positive().optional(),
  max_output_tokens: z.number().int().positive().optional(),
  /** The model takes pictures in user messages (issue 25); without it a message with a picture is refused before any request. */
  images: z.boolean().optional(),
  price: z
    .looseObject({
      input_per_mtok: z.number().nonnegative().optional(),
      output_per_mtok: z.number().nonnegative().optional(),
    })
    .optional(),
});
export type ModelConfig = z.infer<typeof ModelConfig>;

/** A folder or file given to the sandbox: an absolute path, or one under the home folder (`~/…`). */
const SandboxPlace = z.string().refine((p) => p === '~' || p.startsWith('~/') || isAbsolute(p), { message: 'must be an absolute path or start with ~/' });

export const PepeConfig = z.looseObject({
  $schema: z.string().optional(),
  slots: SlotOverrides.optional(),
  agents: z.record(name('agent'), AgentConfig).optional(),
  projects: z.record(name('project'), ProjectConfig).optional(),
  models: z.record(z.string().min(1), ModelConfig).optional(),
  default_model_chain: z.array(z.string().min(1)).optional(),
  sandbox: z
    .looseObject({
      wrapper: z.string().min(1).optional(),
      timeout_ms: z.number().int().positive().optional(),
      max_output_bytes: z.number().int().positive().optional(),
      /** Places commands may also read (spec 8): absolute, or under `~/`. */
      readable: z.array(SandboxPlace).optional(),
      /** Places commands may also write, besides the workspace. */
      writable: z.array(SandboxPlace).optional(),
    })
    .optional(),
  web_search: z.looseObject({ endpoint: z.string().url().optional() }).optional(),
  secrets: z.looseObject({ expose_env: z.array(z.string()).optional() }).optional(),
  limits: z
    .looseObject({
      max_hops: z.number().int().positive().optional(),
      max_steps: z.number().int().positive().optional(),
      /** US dollars a conversation may spend; a model call that could go past it is not made. */
      max_cost: z.number().nonnegative().optional(),
      /** Background tasks (issue 28) that may run at once; default 4. */
      max_tasks: z.number().int().positive().optional(),
    })
    .optional(),
  slot_deadlines_ms: z.partialRecord(SlotName, z.number().int().positive()).optional(),
  permissions: z
    .looseObject({
      /** An approval prompt unanswered this long is given up: the call is parked, neither allowed nor denied. */
      prompt_timeout_seconds: z.number().positive().max(86_400).optional(),
    })
    .optional(),
  mcp_servers: z.record(McpServerName, McpServerConfig).optional(),
  /** Lifecycle hooks (Claude Code's shape): they can deny or ask before a tool, add context after it. */
  hooks: HooksConfig.optional(),
});
export type PepeConfig = z.infer<typeof PepeConfig>;
