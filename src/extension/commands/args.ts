import { z } from 'zod';
import { SLOT_NAMES } from '../../core/slots/names.js';
import { PRESET_NAMES } from '../../core/permissions/presets.js';

/**
 * Arguments of Pepe's commands, parsed at the boundary (keybindings, other extensions, tests and
 * the trees all call them). Every field is optional: what is missing is asked with a quick pick.
 * Tree nodes pass their own fields (slot/agent/project, from/to); extra fields are ignored.
 */
const name = z.string().min(1);
/** Tree nodes carry `null` for "not set" (an agent on the default chain has `model: null`). */
const nullableName = name.nullish().transform((v) => v ?? undefined);
const Slot = z.enum(SLOT_NAMES);

export const SlotSetArgs = z.object({
  slot: Slot.optional(),
  plugin: name.optional(),
  /** Where to write: the whole install, one project's default_slots, or one agent's slots. */
  scope: z.enum(['install', 'project', 'agent']).optional(),
  agent: name.optional(),
  project: name.optional(),
});
export const SlotClearArgs = SlotSetArgs.omit({ plugin: true });
export const SlotListArgs = z.object({ agent: name.optional(), project: name.optional() });
export const SlotTestArgs = z.object({
  slot: Slot.optional(),
  agent: name.optional(),
  project: name.optional(),
  query: z.string().optional(),
  /** For the sandbox: program and arguments. */
  command: z.array(z.string()).min(1).optional(),
});
export const RouteArgs = z.object({ from: name.optional(), to: name.optional() });
export const AgentAddArgs = z.object({
  name: name.optional(),
  model: name.optional(),
  project: name.optional(),
  tools: z.array(name).optional(),
  canMessage: z.array(name).optional(),
  /** A permission preset (what it may do without asking); asked when the name is. */
  preset: z.enum(PRESET_NAMES).optional(),
});
export const AgentArgs = z.object({ agent: name.optional() });
export const AgentRemoveArgs = z.object({ agent: name.optional(), /** Skip the confirmation dialog. */ force: z.boolean().optional() });
export const ChatArgs = z.object({
  agent: name.optional(),
  /** Sends this message right away (otherwise an input box asks); the command returns the turn's result. */
  text: z.string().optional(),
  model: nullableName,
  sessionId: name.optional(),
  /** Open a new panel with a new session even when one for the agent is open. */
  newSession: z.boolean().optional(),
});
export type ChatArgs = z.infer<typeof ChatArgs>;
export const MODEL_PROVIDERS = ['openai', 'openai-compatible', 'anthropic', 'vscode'] as const;
export const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name, e.g. OPENAI_API_KEY');
export const ModelAddArgs = z.object({
  provider: z.enum(MODEL_PROVIDERS).optional(),
  /** The key under "models" in config.json (for `vscode`: ignored, the id is `vscode:<vendor>/<family>`). */
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, _ . - (up to 64)').optional(),
  /** The provider's model name, e.g. gpt-4o-mini; for `vscode`: `<vendor>/<family>`. */
  model: name.optional(),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  apiKeyEnv: EnvName.optional(),
  /**
   * Stored in SecretStorage under apiKeyEnv; never written to config.json. A caller passing
   * arguments without it is not asked: no key (OpenAI-compatible) or the variable alone.
   */
  apiKey: z.string().min(1).optional(),
  /** Skip the test request. */
  skipTest: z.boolean().optional(),
});
export const ModelTestArgs = z.object({ id: name.optional() });
export const ConfigOpenArgs = z.object({ line: z.number().int().positive().optional(), column: z.number().int().positive().optional() });
export const AgentEditArgs = z.object({
  agent: name.optional(),
  /** The model chain in order; [] or null: use default_model_chain. */
  modelChain: z.array(name).nullable().optional(),
  /** null: every tool. */
  tools: z.array(name).nullable().optional(),
  /** "" or null: no system prompt. */
  systemPrompt: z.string().nullable().optional(),
  /** A permission preset: replaces its saved approvals and plan mode. */
  preset: z.enum(PRESET_NAMES).optional(),
});
export const PluginInstallArgs = z.object({ path: name.optional() });
export const ApiKeyArgs = z.object({
  /** The environment variable a model's `api_key_env` names. */
  name: EnvName.optional(),
  value: z.string().min(1).optional(),
});
export const CoreCheckArgs = z.object({ path: name.optional() });
export const ApprovalArgs = z.object({
  id: z.string().min(1).optional(),
  action: z.enum(['approve', 'always', 'deny']).optional(),
  reason: z.string().optional(),
});

/** Tree nodes and command-line style objects both arrive as the first argument. */
export function parseArgs<T extends z.ZodType>(schema: T, command: string, raw: unknown): z.infer<T> {
  if (raw === undefined || raw === null) return schema.parse({});
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || 'argument'}: ${i.message}`).join('; ');
  throw new CommandArgumentError(`${command}: invalid arguments (${problems})`);
}

export class CommandArgumentError extends Error {}
