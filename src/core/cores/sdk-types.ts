/**
 * The `ctx` a pipeline slot receives (spec 7), as TypeScript types for slot authors. `pepe init`
 * writes the same declarations into the scaffold as `agent/pepe-core.d.ts` (global namespace
 * `PepeCore`), generated from this file when the code is built (sdk-dts.ts, sdk-types-text.ts).
 */

export type ContextRole = 'system' | 'user';
export type HistoryPolicy = 'persist' | 'model_hidden' | 'transient';
export type Placement = 'pre_current_user' | 'post_current_user' | 'system_prompt';
export type SlotPhase = 'bootstrap' | 'input' | 'output';
export type SlotGroup = 'serial' | 'parallel';
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface CapabilityClient {
  /** Whether `cap` is granted: by the slot's `slot.yaml`, or by the core's agent.yaml (defaults or this slot's path). */
  can(cap: string): boolean;
  /** Throws, naming `cap` and where to grant it, unless it is granted. */
  require(cap: string): void;
}

export interface TurnInfo {
  sessionId: string;
  turnId: string;
  /** The agent this core runs for (pass it to ctx.agents.run to run a child of the same core). */
  coreId: string;
  /** A fingerprint of the core's files as loaded (changes when a file changes). */
  coreRevision: string;
  userInput: { content: string; metadata: Record<string, unknown> };
  /** Turn metadata from the runtime. */
  metadata: Record<string, unknown>;
}

export interface BootstrapClient {
  /** Adds session-stable context (a system message kept for the whole session, even after compaction). */
  add(text: string): void;
}

export interface AddContextOptions {
  /** Default 'system'. 'user' text becomes part of this turn's user message. */
  role?: ContextRole;
  /** Default: the slot's `default_placement`. Applies to system context. */
  placement?: Placement;
  /** Default: 'transient' for system context (this turn only); the slot's `history_policy` for user text. */
  historyPolicy?: HistoryPolicy;
}

export interface Attachment {
  [key: string]: JsonValue;
}

export interface InputClient {
  /** What the user typed this turn. */
  readonly rawText: string;
  /** Metadata of what came with the text (files, images), as the surface passed it; [] when none. */
  readonly attachments: readonly Attachment[];
  /** Adds context to this turn's prompt (empty or blank text is ignored). Serial slots only: a parallel slot that calls it fails. */
  addContext(text: string, options?: AddContextOptions): void;
  /** Shows text to the user before the model answers. Input deliveries are transient (never written to history). */
  sendText(text: string, options?: { visible?: boolean }): void;
  /** A transient status line for the surface. */
  progress(text: string): void;
  /** A notice for the user (not part of the answer, not in history). */
  notice(text: string): void;
}

export interface SendTextOptions {
  /** Default: the slot's `history_policy`. Parallel slots may only send 'transient' text. */
  historyPolicy?: HistoryPolicy;
  /** Default true: shown to the user. False: only recorded (per historyPolicy). */
  visible?: boolean;
}

export interface OutputClient {
  /** The model's final answer for this turn. */
  readonly responseText: string;
  /** Delivers text to the user (when visible) and records it per historyPolicy. */
  sendText(text: string, options?: SendTextOptions): void;
  /** A transient status line for the surface. */
  progress(text: string): void;
  /** A notice for the user (not part of the answer, not in history). */
  notice(text: string): void;
}

export interface HistoryMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** The tool's name, for tool results. */
  name?: string;
  /** The turn that produced the message, when known. */
  turnId?: string;
  /** The tool call id, for tool results. */
  toolCallId?: string;
  /** Whether later prompts include it (false for model_hidden messages). */
  modelVisible: boolean;
  /** The pipeline slot that produced it, when one did. */
  slotId?: string;
}

export interface HistoryClient {
  /**
   * The last `limit` messages of the session (default 20), oldest first; a non-positive limit
   * gives []. In an output slot, the turn being answered is included. Needs no capability.
   */
  recentMessages(limit?: number, options?: { roles?: HistoryMessage['role'][] }): HistoryMessage[];
}

export interface StateStore {
  get<T = JsonValue>(key: string): T | undefined;
  set(key: string, value: JsonValue): void;
  /** Shallow-merges an object into the object stored at `key`. */
  merge(key: string, value: { [key: string]: JsonValue }): void;
  /** Appends to the list stored at `key` (creating it). */
  append(key: string, value: JsonValue): void;
  /** A copy of everything in this scope. */
  snapshot(): { [key: string]: JsonValue };
}

export interface StateClient {
  /** This session's state. Needs `state.session.read` / `state.session.write`. */
  session: StateStore;
  /** The core's state, shared by every session of the agent. Needs `state.core.read` / `state.core.write`. */
  core: StateStore;
}

export interface ToolResult {
  content: string;
  isError: boolean;
}

export interface ToolsClient {
  /** Calls one of the agent's tools through the permission barrier. Needs `tool.call:<name>`. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
}

export type SlotSelection = 'all' | string[] | null;
export type ToolSelection = 'all' | 'none' | string[];

export interface AgentCallOptions {
  /** Extra text (or texts) for the child's prompt, as system context of its turn. */
  context?: string | string[];
  /** Omitted, null or []: only the child's base_input. 'all': its full input pipeline. A list: those ids, in pipeline order. */
  inputSlots?: SlotSelection;
  /** Same for the output pipeline and base_output. */
  outputSlots?: SlotSelection;
  /** Default 'all' (the child's configured tools); 'none' or [] for none; a list narrows. */
  tools?: ToolSelection;
  /** Default false: no bootstrap slots and no bootstrap snapshot for the child. */
  useBootstrap?: boolean;
}

export interface ChildAgentResult {
  agent: string;
  sessionId: string;
  turnId: string;
  /** The child's delivered answer. */
  content: string;
  status: string;
  /** What the child's output slots set with ctx.result.set. */
  result: JsonValue | null;
  /** What the child's output slots sent, in order. */
  deliveries: { text: string; visible: boolean; historyPolicy: HistoryPolicy }[];
  /** Names of the tools the child called. */
  tools: string[];
  metadata: Record<string, unknown>;
  error?: string;
}

export interface SpawnedAgent {
  taskId: string;
  agent: string;
  /** 'running' when returned; the parent is notified when the child ends. */
  status: 'running';
  /** Resolves when the background child turn ends. */
  wait(): Promise<ChildAgentResult>;
}

export interface AgentsClient {
  /** Runs a child agent's turn and waits for it. Needs `agents.run:<agent>`. */
  run(agent: string, text: string, options?: AgentCallOptions): Promise<ChildAgentResult>;
  /** Starts a child agent's turn in the background. Needs `agents.spawn:<agent>`. */
  spawn(agent: string, text: string, options?: AgentCallOptions): SpawnedAgent;
}

export interface SkillsClient {
  /**
   * Activates a skill for this turn: one of the core's own (`agent/skills/<name>/SKILL.md`) or one
   * of Pepe's. An unknown name is ignored with a notice. Needs `skill.activate` (or
   * `skill.activate:<name>`). Serial input slots only.
   */
  activate(name: string): Promise<void>;
}

export interface ResultClient {
  /** The turn's result so far (null until a serial output slot sets it). */
  readonly value: JsonValue | null;
  /**
   * Serial output slots only. An object is merged into the object set by earlier slots; any other
   * value replaces it. Values must be JSON (no Map, NaN, Infinity, functions, undefined).
   */
  set(value: JsonValue): void;
}

export interface BaseContext {
  readonly sessionId: string;
  readonly slotId: string;
  /** The slot's folder relative to the core folder, such as `agent/input/style_hint`. */
  readonly slotPath: string;
  /** Absolute path of the slot's folder. */
  readonly slotDir: string;
  /** The agent this core runs for. */
  readonly coreId: string;
  /** A fingerprint of the core's files as loaded. */
  readonly coreRevision: string;
  readonly phase: SlotPhase;
  readonly group: SlotGroup;
  /** The workspace folder the agent works in. */
  readonly workspace: string;
  readonly capability: CapabilityClient;
  /** Aborted when the slot times out or the turn is cancelled. */
  readonly signal: AbortSignal;
}

export interface BootstrapContext extends BaseContext {
  readonly phase: 'bootstrap';
  readonly bootstrap: BootstrapClient;
}

export interface TurnContext extends BaseContext {
  readonly turn: TurnInfo;
  readonly history: HistoryClient;
  readonly state: StateClient;
  readonly tools: ToolsClient;
  readonly agents: AgentsClient;
  readonly result: ResultClient;
}

export interface InputContext extends TurnContext {
  readonly phase: 'input';
  readonly input: InputClient;
  readonly skills: SkillsClient;
}

export interface OutputContext extends TurnContext {
  readonly phase: 'output';
  readonly output: OutputClient;
}

export type SlotContext = BootstrapContext | InputContext | OutputContext;

/** What a slot module exports (`entrypoint: module:process`). The return value is ignored (a `core_return_ignored` event says so). */
export type SlotEntrypoint<C extends SlotContext = SlotContext> = (ctx: C) => void | Promise<void>;
