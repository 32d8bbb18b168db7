import type { Message } from '../messages.js';
import type { HistoryPolicy } from './manifest.js';
import type { ContextItem, SentText } from './items.js';

/**
 * How the runtime keeps what pipeline slots produce (spec 7, `history_policy`):
 * - `persist`: written to the transcript and part of the model's history in later turns;
 * - `model_hidden`: written to the transcript (the user sees it when the session is shown or
 *   resumed) but never sent to the model again;
 * - `transient`: used this turn only (this turn's prompt, or shown once), never written.
 *
 * Persisted messages carry these fields (messages are loose objects, so they survive the
 * transcript):
 */
export const HISTORY_POLICY_FIELD = 'history_policy';
/** `true` on a message kept only in the runtime records: never shown as history, never sent to the model. */
export const RUNTIME_RECORD_FIELD = 'runtime_record';
/** The slot a message came from. */
export const CORE_SLOT_FIELD = 'core_slot';
/** `true` on a bootstrap context message (re-injected after compaction, never summarised). */
export const BOOTSTRAP_FIELD = 'core_bootstrap';

export function isModelHidden(m: Message): boolean {
  return (m as Record<string, unknown>)[HISTORY_POLICY_FIELD] === 'model_hidden';
}

export function isRuntimeRecord(m: Message): boolean {
  return (m as Record<string, unknown>)[RUNTIME_RECORD_FIELD] === true;
}

/** The transcript as the model should see it in a later turn: no model_hidden messages, no runtime records. */
export function modelHistory(messages: readonly Message[]): Message[] {
  return messages.filter((m) => !isModelHidden(m) && !isRuntimeRecord(m));
}

/** The transcript as a person should see it: no runtime records (model_hidden ones stay). */
export function visibleHistory(messages: readonly Message[]): Message[] {
  return messages.filter((m) => !isRuntimeRecord(m));
}

function mark<M extends Message>(m: M, policy: HistoryPolicy, slotId: string | null): M {
  const out = { ...m } as Record<string, unknown>;
  if (policy === 'model_hidden') out[HISTORY_POLICY_FIELD] = 'model_hidden';
  if (slotId) out[CORE_SLOT_FIELD] = slotId;
  return out as M;
}

/** Bootstrap texts as system messages, to follow the agent's system prompt in every prompt of the session. */
export function bootstrapMessages(texts: readonly string[]): Message[] {
  return texts.map((content) => ({ role: 'system', content, [BOOTSTRAP_FIELD]: true }) as Message);
}

export interface InputMessages {
  /** System context for the end of the leading system block (placement system_prompt). */
  systemBlock: Message[];
  /** This turn's part of the prompt, in order: pre-user context, the user message, post-user context. */
  turn: Message[];
  /** What to append to the transcript (transient items left out; model_hidden ones marked). */
  persist: Message[];
}

/**
 * Turns the input pipeline's items into messages. User-role items form ONE user message (joined
 * by blank lines, in the order added); system items go before it, after it, or to the system
 * block, by placement. For the transcript, the user message keeps only its non-transient parts
 * (split in two when some parts are model_hidden and others persist).
 */
export function inputMessages(context: readonly ContextItem[]): InputMessages {
  const users = context.filter((c) => c.role === 'user');
  const system = (placement: ContextItem['placement']) => context.filter((c) => c.role === 'system' && c.placement === placement);
  const userMessage: Message = { role: 'user', content: users.map((u) => u.text).join('\n\n') };
  const sys = (c: ContextItem): Message => ({ role: 'system', content: c.text });
  const turn: Message[] = [...system('pre_current_user').map(sys), ...(users.length ? [userMessage] : []), ...system('post_current_user').map(sys)];

  const persist: Message[] = [];
  for (const c of system('system_prompt')) if (c.historyPolicy !== 'transient') persist.push(mark(sys(c), c.historyPolicy, c.slotId));
  for (const c of system('pre_current_user')) if (c.historyPolicy !== 'transient') persist.push(mark(sys(c), c.historyPolicy, c.slotId));
  for (const policy of ['persist', 'model_hidden'] as const) {
    const parts = users.filter((u) => u.historyPolicy === policy);
    if (parts.length) persist.push(mark({ role: 'user', content: parts.map((u) => u.text).join('\n\n') }, policy, null));
  }
  for (const c of system('post_current_user')) if (c.historyPolicy !== 'transient') persist.push(mark(sys(c), c.historyPolicy, c.slotId));
  return { systemBlock: system('system_prompt').map(sys), turn, persist };
}

export interface PromptParts {
  /** The agent's system prompt message(s). */
  system: readonly Message[];
  /** The session's bootstrap snapshot texts (empty when none, or for a child without useBootstrap). */
  bootstrap: readonly string[];
  /** The transcript so far (the helper drops model_hidden messages and runtime records). */
  history: readonly Message[];
  /** This turn's context items from runInput. */
  context: readonly ContextItem[];
}

/** The prompt for the turn's first model call: system prompt, bootstrap, system-block context, history, this turn. */
export function composePrompt(parts: PromptParts): Message[] {
  const input = inputMessages(parts.context);
  return [...parts.system, ...bootstrapMessages(parts.bootstrap), ...input.systemBlock, ...modelHistory(parts.history), ...input.turn];
}

/**
 * What the output pipeline adds to the transcript: the raw final answer as a runtime record
 * (kept, never shown as history nor sent to the model again), then every non-transient sent text
 * as an assistant message (model_hidden ones marked).
 */
export function outputMessages(responseText: string, sent: readonly SentText[]): { rawRecord: Message; persist: Message[] } {
  return {
    rawRecord: { role: 'assistant', content: responseText, [RUNTIME_RECORD_FIELD]: true } as Message,
    persist: sent.filter((s) => s.historyPolicy !== 'transient').map((s) => mark({ role: 'assistant', content: s.text }, s.historyPolicy, s.slotId)),
  };
}
