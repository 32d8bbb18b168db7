import { isAbsolute } from 'node:path';
import * as z from '../zod.js';
import { AgentMcpSelection, McpServerConfig, McpServerName } from './mcp-servers.js';
import { SLOT_NAMES } from './slot-names.js';
import { HooksConfig } from './hooks.js';

/**
 * The one configuration file (spec 2). Every object is "loose": unknown keys survive a
 * round trip (forward compatibility) and are reported by `unknownKeys` / `pepe doctor`.
 */

export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const name = (what: string) =>
  z.string().check(z.regex(NAME_PATTERN, { message: `a ${what} name uses letters, digits, '_', '-' or '.', starting with a letter or digit` }));

export const SlotName = z.enum(SLOT_NAMES);
export const SlotOverrides = z.partialRecord(SlotName, z.string().check(z.minLength(1)));

export const Tier = z.enum(['normal', 'low_compute', 'critical', 'dead']);
export type Tier = z.infer<typeof Tier>;

export const HeartbeatConfig = z.looseObject({
  every_minutes: z.number().check(z.positive()),
  active_hours: z.optional(z.string().check(z.regex(/^\d{2}:\d{2}-\d{2}:\d{2}$/, { message: 'use HH:MM-HH:MM, e.g. "09:00-18:00"' }))),
  prompt: z.optional(z.string()),
});

/**
 * Which project instruction files (AGENTS.md, CLAUDE.md, …) an agent is given: names or globs
 * (`["AGENTS.md", ".cursor/rules/*"]`), or `false` / `"off"` for none. Absent: every file found.
 */
export const InstructionsSetting = z.union([z.literal(false), z.literal('off'), z.array(z.string().check(z.minLength(1)))]);

export const AgentConfig = z.looseObject({
  model: z.optional(z.string().check(z.minLength(1))),
  model_chain: z.optional(z.array(z.string().check(z.minLength(1)))),
  tools: z.optional(z.array(z.string().check(z.minLength(1)))),
  can_message: z.optional(z.array(name('agent'))),
  slots: z.optional(SlotOverrides),
  project: z.optional(name('project')),
  system_prompt: z.optional(z.string()),
  auto_approve: z.optional(z.union([z.literal('*'), z.array(z.string().check(z.minLength(1)))])),
  trust_untrusted_content: z.optional(z.boolean()),
  heartbeat: z.optional(HeartbeatConfig),
  core: z.optional(z.string().check(z.minLength(1))),
  /** MCP servers (every tool) or tools (`mcp__<server>__<tool>`) this agent may use. */
  mcp: z.optional(AgentMcpSelection),
  /** Project instruction files this agent uses (names or globs), or false / "off"; absent: its project's, else all. */
  instructions: z.optional(InstructionsSetting),
  /** Conversations with this agent start in plan mode (only tools that read run) unless the person switches. */
  plan_mode: z.optional(z.boolean()),
  /** This agent's conversations: `max_cost` (US dollars) each, instead of the top-level one. */
  limits: z.optional(z.looseObject({ max_cost: z.optional(z.number().check(z.nonnegative())) })),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

export const ProjectConfig = z.looseObject({
  default_slots: z.optional(SlotOverrides),
  /** Projects whose agents this project's agents may message (directed; routes are still needed). */
  can_message_projects: z.optional(z.array(name('project'))),
  spend_cap_usd: z.optional(z.number().check(z.nonnegative())),
  /** Project instruction files its agents use, unless an agent says otherwise. */
  instructions: z.optional(InstructionsSetting),
  tier_thresholds: z.optional(
    z.looseObject({
      low_compute: z.optional(z.number().check(z.positive())),
      critical: z.optional(z.number().check(z.positive())),
      dead: z.optional(z.number().check(z.positive())),
    }),
  ),
});
export type ProjectConfig = z.infer<typeof ProjectConfig>;

export const ModelConfig = z.looseObject({
  provider: z.enum(['openai', 'openai-compatible', 'anthropic', 'mock']),
  model: z.string().check(z.minLength(1)),
  base_url: z.optional(z.url()),
  api_key_env: z.optional(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'name an environment variable, e.g. "OPENAI_API_KEY"' }))),
  context_window: z.optional(z.int().check(z.positive())),
  max_output_tokens: z.optional(z.int().check(z.positive())),
  /** The model takes pictures in user messages (issue 25); without it a message with a picture is refused before any request. */
  images: z.optional(z.boolean()),
  price: z.optional(
    z.looseObject({
      input_per_mtok: z.optional(z.number().check(z.nonnegative())),
      output_per_mtok: z.optional(z.number().check(z.nonnegative())),
    }),
  ),
});
export type ModelConfig = z.infer<typeof ModelConfig>;

/** A folder or file given to the sandbox: an absolute path, or one under the home folder (`~/…`). */
const SandboxPlace = z.string().check(z.refine((p) => p === '~' || p.startsWith('~/') || isAbsolute(p), { message: 'must be an absolute path or start with ~/' }));

export const PepeConfig = z.looseObject({
  $schema: z.optional(z.string()),
  slots: z.optional(SlotOverrides),
  agents: z.optional(z.record(name('agent'), AgentConfig)),
  projects: z.optional(z.record(name('project'), ProjectConfig)),
  models: z.optional(z.record(z.string().check(z.minLength(1)), ModelConfig)),
  default_model_chain: z.optional(z.array(z.string().check(z.minLength(1)))),
  sandbox: z.optional(
    z.looseObject({
      wrapper: z.optional(z.string().check(z.minLength(1))),
      timeout_ms: z.optional(z.int().check(z.positive())),
      max_output_bytes: z.optional(z.int().check(z.positive())),
      /** Places commands may also read (spec 8): absolute, or under `~/`. */
      readable: z.optional(z.array(SandboxPlace)),
      /** Places commands may also write, besides the workspace. */
      writable: z.optional(z.array(SandboxPlace)),
    }),
  ),
  web_search: z.optional(z.looseObject({ endpoint: z.optional(z.url()) })),
  secrets: z.optional(z.looseObject({ expose_env: z.optional(z.array(z.string())) })),
  limits: z.optional(
    z.looseObject({
      max_hops: z.optional(z.int().check(z.positive())),
      max_steps: z.optional(z.int().check(z.positive())),
      /** US dollars a conversation may spend; a model call that could go past it is not made. */
      max_cost: z.optional(z.number().check(z.nonnegative())),
      /** Background tasks (issue 28) that may run at once; default 4. */
      max_tasks: z.optional(z.int().check(z.positive())),
    }),
  ),
  slot_deadlines_ms: z.optional(z.partialRecord(SlotName, z.int().check(z.positive()))),
  permissions: z.optional(
    z.looseObject({
      /** An approval prompt unanswered this long is given up: the call is parked, neither allowed nor denied. */
      prompt_timeout_seconds: z.optional(z.number().check(z.positive(), z.lte(86_400))),
    }),
  ),
  mcp_servers: z.optional(z.record(McpServerName, McpServerConfig)),
  /** Lifecycle hooks (Claude Code's shape): they can deny or ask before a tool, add context after it. */
  hooks: z.optional(HooksConfig),
});
export type PepeConfig = z.infer<typeof PepeConfig>;
