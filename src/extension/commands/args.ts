import * as z from '../../core/zod.js';
import { SLOT_NAMES } from '../../core/slots/names.js';
import { PRESET_NAMES } from '../../core/permissions/presets.js';

/**
 * Arguments of Pepe's commands, parsed at the boundary (keybindings, other extensions, tests and
 * the trees all call them). Every field is optional: what is missing is asked with a quick pick.
 * Tree nodes pass their own fields (slot/agent/project, from/to); extra fields are ignored.
 */
const name = z.string().check(z.minLength(1));
/** Tree nodes carry `null` for "not set" (an agent on the default chain has `model: null`). */
const nullableName = z.pipe(z.nullish(name), z.transform((v) => v ?? undefined));
const Slot = z.enum(SLOT_NAMES);

export const SlotSetArgs = z.object({
  slot: z.optional(Slot),
  plugin: z.optional(name),
  /** Where to write: the whole install, one project's default_slots, or one agent's slots. */
  scope: z.optional(z.enum(['install', 'project', 'agent'])),
  agent: z.optional(name),
  project: z.optional(name),
});
export const SlotClearArgs = z.omit(SlotSetArgs, { plugin: true });
export const SlotListArgs = z.object({ agent: z.optional(name), project: z.optional(name) });
export const SlotTestArgs = z.object({
  slot: z.optional(Slot),
  agent: z.optional(name),
  project: z.optional(name),
  query: z.optional(z.string()),
  /** For the sandbox: program and arguments. */
  command: z.optional(z.array(z.string()).check(z.minLength(1))),
});
export const RouteArgs = z.object({ from: z.optional(name), to: z.optional(name) });
export const AgentAddArgs = z.object({
  name: z.optional(name),
  model: z.optional(name),
  project: z.optional(name),
  tools: z.optional(z.array(name)),
  canMessage: z.optional(z.array(name)),
  /** A permission preset (what it may do without asking); asked when the name is. */
  preset: z.optional(z.enum(PRESET_NAMES)),
});
export const AgentArgs = z.object({ agent: z.optional(name) });
export const AgentRemoveArgs = z.object({ agent: z.optional(name), /** Skip the confirmation dialog. */ force: z.optional(z.boolean()) });
export const ChatArgs = z.object({
  agent: z.optional(name),
  /** Sends this message right away (otherwise an input box asks); the command returns the turn's result. */
  text: z.optional(z.string()),
  model: nullableName,
  sessionId: z.optional(name),
  /** Open a new panel with a new session even when one for the agent is open. */
  newSession: z.optional(z.boolean()),
});
export type ChatArgs = z.infer<typeof ChatArgs>;
export const MODEL_PROVIDERS = ['openai', 'openai-compatible', 'anthropic', 'vscode'] as const;
export const EnvName = z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name, e.g. OPENAI_API_KEY'));
export const ModelAddArgs = z.object({
  provider: z.optional(z.enum(MODEL_PROVIDERS)),
  /** The key under "models" in config.json (for `vscode`: ignored, the id is `vscode:<vendor>/<family>`). */
  id: z.optional(z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, _ . - (up to 64)'))),
  /** The provider's model name, e.g. gpt-4o-mini; for `vscode`: `<vendor>/<family>`. */
  model: z.optional(name),
  baseUrl: z.optional(z.url({ protocol: /^https?$/ })),
  apiKeyEnv: z.optional(EnvName),
  /**
   * Stored in SecretStorage under apiKeyEnv; never written to config.json. A caller passing
   * arguments without it is not asked: no key (OpenAI-compatible) or the variable alone.
   */
  apiKey: z.optional(z.string().check(z.minLength(1))),
  /** Skip the test request. */
  skipTest: z.optional(z.boolean()),
});
export const ModelTestArgs = z.object({ id: z.optional(name) });
export const ConfigOpenArgs = z.object({ line: z.optional(z.number().check(z.int(), z.positive())), column: z.optional(z.number().check(z.int(), z.positive())) });
export const AgentEditArgs = z.object({
  agent: z.optional(name),
  /** The model chain in order; [] or null: use default_model_chain. */
  modelChain: z.optional(z.nullable(z.array(name))),
  /** null: every tool. */
  tools: z.optional(z.nullable(z.array(name))),
  /** "" or null: no system prompt. */
  systemPrompt: z.optional(z.nullable(z.string())),
  /** A permission preset: replaces its saved approvals and plan mode. */
  preset: z.optional(z.enum(PRESET_NAMES)),
});
export const PluginInstallArgs = z.object({ path: z.optional(name) });
export const ApiKeyArgs = z.object({
  /** The environment variable a model's `api_key_env` names. */
  name: z.optional(EnvName),
  value: z.optional(z.string().check(z.minLength(1))),
});
export const CoreCheckArgs = z.object({ path: z.optional(name) });
export const ApprovalArgs = z.object({
  id: z.optional(z.string().check(z.minLength(1))),
  action: z.optional(z.enum(['approve', 'always', 'deny'])),
  reason: z.optional(z.string()),
});

/** Tree nodes and command-line style objects both arrive as the first argument. */
export function parseArgs<T extends z.ZodMiniType>(schema: T, command: string, raw: unknown): z.infer<T> {
  if (raw === undefined || raw === null) return schema.parse({});
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || 'argument'}: ${i.message}`).join('; ');
  throw new CommandArgumentError(`${command}: invalid arguments (${problems})`);
}

export class CommandArgumentError extends Error {}
