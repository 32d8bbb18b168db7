import * as z from 'zod/mini';
import { TurnEventSchema } from './turn-event.js';

/**
 * Every message between the chat panel's host (extension) and its webview (issue 7), defined once
 * and validated on both sides. The webview starts with `ready`; the host answers with `init` (the
 * whole conversation so far) and only then streams `items` / `state` updates. A webview that was
 * hidden and shown again (no retainContextWhenHidden) sends `ready` again and gets a fresh `init`.
 */

// ---- what the conversation is made of ----

/** Model calls' spend summed: what the chat shows per turn and per session. */
export const UsageSchema = z.object({ calls: z.number(), inputTokens: z.number(), outputTokens: z.number(), costUsd: z.number() });
export type Usage = z.infer<typeof UsageSchema>;

/** What context can be attached to a turn (core/context-attachments.ts ATTACHMENT_KINDS). */
export const ATTACHMENT_KINDS = ['file', 'folder', 'selection', 'problems', 'terminal'] as const;
export const AttachmentKindSchema = z.enum(ATTACHMENT_KINDS);
export type AttachmentKind = z.infer<typeof AttachmentKindSchema>;

/** A chip: context the host gathered and keeps for the next turn (the content stays in the host). */
export const AttachmentChipSchema = z.object({ id: z.string(), kind: AttachmentKindSchema, label: z.string() });
export type AttachmentChip = z.infer<typeof AttachmentChipSchema>;

/** One entry of a conversation, in order. Turn events are forwarded as the core emits them. */
export const ChatItemSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    text: z.string(),
    attachments: z.optional(z.array(z.object({ kind: AttachmentKindSchema, label: z.string() }))),
    /** Pictures sent with the message, by name (the bytes stay in the session, not in the page). */
    images: z.optional(z.array(z.object({ label: z.string() }))),
  }),
  /** The turn changed files and a checkpoint was taken before it: restore to it or compare with it. */
  z.object({
    kind: z.literal('checkpoint'),
    sessionId: z.string(),
    turnId: z.string(),
    /** How many files differ from the checkpoint at the turn's end. */
    files: z.optional(z.number()),
    /** The checkpoint's name in lists ("before “Fix the rounding”"). */
    label: z.optional(z.string().check(z.maxLength(300))),
  }),
  z.object({ kind: z.literal('event'), event: TurnEventSchema }),
  /** Something the host says about the conversation (switched agent, a turn that could not start). */
  /** Tokens and cost of one turn (its consulted agents included), from the usage records. */
  z.object({ kind: z.literal('usage'), usage: UsageSchema }),
  z.object({
    kind: z.literal('notice'),
    level: z.enum(['info', 'warning', 'error']),
    text: z.string(),
    /** Set on failures a person may retry: the user text to send again. */
    retryText: z.optional(z.string()),
  }),
]);
export type ChatItem = z.infer<typeof ChatItemSchema>;

export const AgentInfoSchema = z.object({ name: z.string(), model: z.nullable(z.string()), project: z.nullable(z.string()) });
export type AgentInfo = z.infer<typeof AgentInfoSchema>;

/** A choice of the model picker; `id: null` is the agent's chain (model_select). */
export const ModelChoiceSchema = z.object({ id: z.nullable(z.string()), label: z.string(), group: z.enum(['default', 'vscode', 'configured']) });
export type ModelChoice = z.infer<typeof ModelChoiceSchema>;

export const SessionSummarySchema = z.object({
  agent: z.string(),
  id: z.string(),
  title: z.nullable(z.string()),
  updatedAt: z.string(),
  messages: z.number(),
  /** How the session started: `user` (a chat), or `heartbeat` (a scheduled pulse, shown as such). */
  origin: z.optional(z.enum(['user', 'routed', 'child', 'heartbeat'])),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** What the header shows: who answers, in which session, with which model, and whether a turn runs. */
export const PanelStateSchema = z.object({
  /** Stable for the panel's life (and across reloads): the serializer finds the conversation by it. */
  panelId: z.string(),
  agent: z.nullable(z.string()),
  sessionId: z.nullable(z.string()),
  model: z.nullable(z.string()),
  /** The agent's project tier when it is not `normal` (spec 4.6), else null. */
  tier: z.nullable(z.string()),
  project: z.nullable(z.string()),
  busy: z.boolean(),
  /** This session's model calls so far (this agent's own; null before the first). */
  sessionUsage: z.optional(z.nullable(UsageSchema)),
  /** Context attached to the next message (@file, @selection, a dropped file, Add Selection to Pepe Chat). */
  attachments: z.optional(z.array(AttachmentChipSchema)),
  /**
   * Where the outside content this conversation took in came from (spec 5.3): while not empty,
   * pre-approvals are paused and the header says so, with a button to trust it again.
   */
  outsideContent: z.optional(z.array(z.string())),
  /** The next turn runs in plan mode: only tools that read run, the agent answers with a plan. */
  planMode: z.optional(z.boolean()),
  /** The last turn answered with a plan that "Start" can hand over. */
  canStartPlan: z.optional(z.boolean()),
  /** The context meter: the last call's tokens against the model's window, and where compaction starts. */
  context: z.optional(z.nullable(z.object({ usedTokens: z.number(), windowTokens: z.number(), compactAtTokens: z.number(), compacted: z.boolean() }))),
  /** This conversation's budget (limits.max_cost), when one is set. */
  budget: z.optional(z.nullable(z.object({ limitUsd: z.number(), spentUsd: z.number() }))),
  /** What the empty chat says about the agent: what it can do in one line, three example prompts. */
  intro: z.optional(z.nullable(z.object({ summary: z.string().check(z.maxLength(2000)), examples: z.array(z.string().check(z.maxLength(500))).check(z.maxLength(3)) }))),
  /** The agent's project spend against its cap. */
  projectSpend: z.optional(z.nullable(z.object({ spendUsd: z.number(), capUsd: z.nullable(z.number()) }))),
});
export type PanelState = z.infer<typeof PanelStateSchema>;

/** What the webview keeps with getState/setState and the serializer restores after a reload. */
export const ViewStateSchema = z.object({
  panelId: z.optional(z.string()),
  agent: z.nullable(z.string()),
  sessionId: z.nullable(z.string()),
  model: z.optional(z.nullable(z.string())),
  draft: z.optional(z.string()),
});
export type ViewState = z.infer<typeof ViewStateSchema>;

/** What the input completes after a `/`: the chat's own commands and the prompt files (`/name args`). */
export const SlashCommandSchema = z.object({ name: z.string(), detail: z.string(), kind: z.enum(['command', 'prompt']) });
export type SlashCommand = z.infer<typeof SlashCommandSchema>;

/** Base64 of the largest picture a message may carry (5 MB, core/images.ts MAX_IMAGE_BYTES). */
export const IMAGE_DATA_MAX_CHARS = Math.ceil((5 * 1024 * 1024) / 3) * 4;

/**
 * Pairs a request with its reply (`list_sessions` → `sessions`, `copy` → `copied`): the webview
 * names each request, the host answers with the same id, so a late answer to a superseded request
 * is told apart from the current one.
 */
export const RequestIdSchema = z.string().check(z.minLength(1), z.maxLength(64));

// ---- host → webview ----

export const HostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    state: PanelStateSchema,
    agents: z.array(AgentInfoSchema),
    models: z.array(ModelChoiceSchema),
    items: z.array(ChatItemSchema),
  }),
  z.object({ type: z.literal('items'), items: z.array(ChatItemSchema) }),
  z.object({ type: z.literal('state'), state: PanelStateSchema }),
  /** The conversation was replaced (new session, /agent, another session opened): clear and show these. */
  z.object({ type: z.literal('reset'), state: PanelStateSchema, items: z.array(ChatItemSchema) }),
  z.object({ type: z.literal('agents'), agents: z.array(AgentInfoSchema), models: z.array(ModelChoiceSchema) }),
  /** The history list; `query`: the search it answers (titles, agents, ids and messages were searched by the host). */
  z.object({ type: z.literal('sessions'), sessions: z.array(SessionSummarySchema), query: z.optional(z.string()), requestId: z.optional(RequestIdSchema) }),
  z.object({ type: z.literal('copied'), requestId: z.optional(RequestIdSchema) }),
  /** Put the keyboard focus back in the message input (after an approval, a pick, a diff, on reveal). */
  z.object({ type: z.literal('focus_input') }),
  /** The `/` completions, sent after `init` (prompt files can change: sent again after each turn). */
  z.object({ type: z.literal('commands'), commands: z.array(SlashCommandSchema).check(z.maxLength(500)) }),
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

// ---- webview → host ----

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), state: z.nullable(ViewStateSchema) }),
  /** `attachments`: ids of the chips shown (the host holds their content); only those are sent. */
  z.object({
    type: z.literal('send'),
    text: z.string().check(z.minLength(1), z.maxLength(200_000)),
    attachments: z.optional(z.array(z.string()).check(z.maxLength(20))),
    /**
     * Pictures pasted or dropped on the composer: base64 bytes and a name. No media type: the host
     * reads it from the bytes (core/images.ts) and refuses anything that is not a picture.
     */
    images: z.optional(z.array(z.object({ name: z.optional(z.string().check(z.maxLength(200))), data: z.string().check(z.minLength(4), z.maxLength(IMAGE_DATA_MAX_CHARS)) })).check(z.maxLength(8))),
  }),
  /** An @ completion or a drop: the host gathers the context (files and folders by `uris`; a quick pick when none). */
  z.object({ type: z.literal('attach'), kind: AttachmentKindSchema, uris: z.optional(z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(20))) }),
  z.object({ type: z.literal('detach'), id: z.string() }),
  /** A write_file/edit_file card's file link: opened only when it is inside the workspace. */
  z.object({ type: z.literal('open_file'), path: z.string().check(z.minLength(1), z.maxLength(4096)) }),
  /** A card's "Show changes": the file's diff since the checkpoint taken before that turn. */
  z.object({ type: z.literal('show_change'), path: z.string().check(z.minLength(1), z.maxLength(4096)), sessionId: z.string(), turnId: z.string() }),
  /** "Restore to before this turn" / "Compare with before this turn" (pepe.checkpoints.restore / .compare). */
  z.object({ type: z.literal('checkpoint'), action: z.enum(['restore', 'compare']), sessionId: z.string().check(z.minLength(1)), turnId: z.string().check(z.minLength(1)) }),
  z.object({ type: z.literal('stop') }),
  /** The header's "Trust again" (or `/trust`): the person read the outside content and trusts this conversation again. */
  z.object({ type: z.literal('trust_session') }),
  z.object({ type: z.literal('set_agent'), agent: z.string().check(z.minLength(1)) }),
  z.object({ type: z.literal('set_model'), model: z.nullable(z.string()) }),
  /** The mode switch: plan mode (only tools that read run) or acting. */
  z.object({ type: z.literal('set_plan_mode'), plan: z.boolean() }),
  /** "Start": the last plan, handed over in acting mode as the next message. */
  z.object({ type: z.literal('start_plan') }),
  z.object({ type: z.literal('new_session') }),
  /** The history list, only sessions with every word of `query` in their title, agent, id or messages when given. */
  z.object({ type: z.literal('list_sessions'), query: z.optional(z.string().check(z.maxLength(200))), requestId: z.optional(RequestIdSchema) }),
  z.object({ type: z.literal('open_session'), agent: z.string(), sessionId: z.string() }),
  z.object({ type: z.literal('rename_session'), agent: z.string(), sessionId: z.string() }),
  z.object({ type: z.literal('delete_session'), agent: z.string(), sessionId: z.string() }),
  /** "Export as Markdown": the host asks where, and writes the same Markdown as `pepe sessions export`. */
  z.object({ type: z.literal('export_session'), agent: z.string(), sessionId: z.string() }),
  z.object({ type: z.literal('copy'), text: z.string(), requestId: z.optional(RequestIdSchema) }),
  /** The failure's "Set API Key…": the host checks the name is one a configured model reads. */
  z.object({ type: z.literal('set_api_key'), name: z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/)) }),
  /** The failure's "Edit Model…": config.json opened at that model's entry (only a configured model). */
  z.object({ type: z.literal('edit_model'), model: z.string().check(z.minLength(1), z.maxLength(128)) }),
  /** The budget stop's "Edit Budget…": config.json opened at the agent's entry (its limits). */
  z.object({ type: z.literal('edit_budget'), agent: z.string().check(z.minLength(1), z.maxLength(128)) }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodMiniType<T>, raw: unknown): Parsed<T> {
  const r = schema.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  const first = r.error.issues[0];
  return { ok: false, error: first ? `${first.path.join('.') || '(message)'}: ${first.message}` : 'invalid message' };
}

/** Host side: what came from the webview. Anything else is dropped (and logged) by the caller. */
export const parseWebviewMessage = (raw: unknown): Parsed<WebviewMessage> => parseWith(WebviewMessageSchema, raw);
/** Webview side: what came from the host. */
export const parseHostMessage = (raw: unknown): Parsed<HostMessage> => parseWith(HostMessageSchema, raw);
export const parseViewState = (raw: unknown): ViewState | null => {
  const r = ViewStateSchema.safeParse(raw);
  return r.success ? r.data : null;
};
