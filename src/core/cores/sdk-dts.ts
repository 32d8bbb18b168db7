/**
 * The author-facing declarations `pepe init` writes as `agent/pepe-core.d.ts`: the types of
 * sdk-types.ts in a global namespace `PepeCore`, so slot modules need no import. Generated from
 * sdk-types.ts by `globalDeclarations`; a unit test fails when the two drift apart. Regenerate with
 * `PEPE_REGENERATE_DTS=1 npx mocha --no-config --node-option import=tsx test/unit/cores/sdk-and-init.test.ts`.
 */

export const DTS_HEADER =
  '// Types of the ctx a Pepe pipeline slot receives (spec 7). Written by `pepe init`; safe to replace\n' +
  '// with a newer copy. Use them without importing: `export function process(ctx: PepeCore.InputContext)`.\n\n';

/** sdk-types.ts (a module) → the same declarations inside `declare namespace PepeCore { … }`. */
export function globalDeclarations(moduleSource: string): string {
  const body = moduleSource.slice(moduleSource.indexOf('*/') + 2).trim().replaceAll('export type ', 'type ').replaceAll('export interface ', 'interface ');
  const indented = body
    .split('\n')
    .map((l) => (l.trim() ? `  ${l}` : ''))
    .join('\n');
  return `${DTS_HEADER}declare namespace PepeCore {\n${indented}\n}\n`;
}

/** This file's source with `dts` as PEPE_CORE_DTS (used to regenerate it). */
export function sdkDtsModule(currentSource: string, dts: string): string {
  const start = currentSource.search(/^export const PEPE_CORE_DTS = /m);
  const escaped = dts.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${');
  return `${currentSource.slice(0, start)}export const PEPE_CORE_DTS = \`${escaped}\`;\n`;
}

export const PEPE_CORE_DTS = `// Types of the ctx a Pepe pipeline slot receives (spec 7). Written by \`pepe init\`; safe to replace
// with a newer copy. Use them without importing: \`export function process(ctx: PepeCore.InputContext)\`.

declare namespace PepeCore {
  type ContextRole = 'system' | 'user';
  type HistoryPolicy = 'persist' | 'model_hidden' | 'transient';
  type Placement = 'pre_current_user' | 'post_current_user' | 'system_prompt';
  type SlotPhase = 'bootstrap' | 'input' | 'output';
  type SlotGroup = 'serial' | 'parallel';
  type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

  interface CapabilityClient {
    /** Whether the slot's \`slot.yaml\` declares \`cap\` (or \`family:*\` for a named one). */
    can(cap: string): boolean;
    /** Throws, naming \`cap\` and the \`slot.yaml\` to add it to, unless it is declared. */
    require(cap: string): void;
  }

  interface TurnInfo {
    sessionId: string;
    turnId: string;
    userInput: { content: string; metadata: Record<string, unknown> };
  }

  interface BootstrapClient {
    /** Adds session-stable context (a system message kept for the whole session, even after compaction). */
    add(text: string): void;
  }

  interface AddContextOptions {
    /** Default 'system'. 'user' text becomes part of this turn's user message. */
    role?: ContextRole;
    /** Default: the slot's \`default_placement\`. Applies to system context. */
    placement?: Placement;
    /** Default: the slot's \`history_policy\`. */
    historyPolicy?: HistoryPolicy;
  }

  interface InputClient {
    /** What the user typed this turn. */
    readonly rawText: string;
    /** Adds context to this turn's prompt. Serial slots only: a parallel slot that calls it fails. */
    addContext(text: string, options?: AddContextOptions): void;
  }

  interface SendTextOptions {
    /** Default: the slot's \`history_policy\`. Parallel slots may only send 'transient' text. */
    historyPolicy?: HistoryPolicy;
    /** Default true: shown to the user. False: only recorded (per historyPolicy). */
    visible?: boolean;
  }

  interface OutputClient {
    /** The model's final answer for this turn. */
    readonly responseText: string;
    /** Delivers text to the user (when visible) and records it per historyPolicy. */
    sendText(text: string, options?: SendTextOptions): void;
    /** A transient status line for the surface. */
    progress(text: string): void;
    /** A notice for the user (not part of the answer, not in history). */
    notice(text: string): void;
  }

  interface HistoryMessage {
    role: 'system' | 'user' | 'assistant' | 'tool';
    content: string;
    /** The tool's name, for tool results. */
    name?: string;
  }

  interface HistoryClient {
    /** The last \`limit\` messages of the session (default 20), oldest first. Needs \`history.read\`. */
    recentMessages(limit?: number, options?: { roles?: HistoryMessage['role'][] }): HistoryMessage[];
  }

  interface StateStore {
    get<T = JsonValue>(key: string): T | undefined;
    set(key: string, value: JsonValue): void;
    /** Shallow-merges an object into the object stored at \`key\`. */
    merge(key: string, value: { [key: string]: JsonValue }): void;
    /** Appends to the list stored at \`key\` (creating it). */
    append(key: string, value: JsonValue): void;
    /** A copy of everything in this scope. */
    snapshot(): { [key: string]: JsonValue };
  }

  interface StateClient {
    /** This session's state. Needs \`state.session.read\` / \`state.session.write\`. */
    session: StateStore;
    /** The core's state, shared by every session of the agent. Needs \`state.core.read\` / \`state.core.write\`. */
    core: StateStore;
  }

  interface ToolResult {
    content: string;
    isError: boolean;
  }

  interface ToolsClient {
    /** Calls one of the agent's tools through the permission barrier. Needs \`tool.call:<name>\`. */
    call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  }

  type SlotSelection = 'all' | string[] | null;
  type ToolSelection = 'all' | 'none' | string[];

  interface AgentCallOptions {
    /** Omitted, null or []: only the child's base_input. 'all': its full input pipeline. A list: those ids, in pipeline order. */
    inputSlots?: SlotSelection;
    /** Same for the output pipeline and base_output. */
    outputSlots?: SlotSelection;
    /** Default 'all' (the child's configured tools); 'none' or [] for none; a list narrows. */
    tools?: ToolSelection;
    /** Default false: no bootstrap slots and no bootstrap snapshot for the child. */
    useBootstrap?: boolean;
  }

  interface ChildAgentResult {
    agent: string;
    sessionId: string;
    /** The child's delivered answer. */
    content: string;
    status: string;
    /** What the child's output slots set with ctx.result.set. */
    result: JsonValue | null;
    error?: string;
  }

  interface SpawnedAgent {
    taskId: string;
    agent: string;
    /** Resolves when the background child turn ends. */
    wait(): Promise<ChildAgentResult>;
  }

  interface AgentsClient {
    /** Runs a child agent's turn and waits for it. Needs \`agents.run:<agent>\`. */
    run(agent: string, text: string, options?: AgentCallOptions): Promise<ChildAgentResult>;
    /** Starts a child agent's turn in the background. Needs \`agents.spawn:<agent>\`. */
    spawn(agent: string, text: string, options?: AgentCallOptions): SpawnedAgent;
  }

  interface SkillsClient {
    /** Activates a skill for this turn. Needs \`skill.activate\` (or \`skill.activate:<name>\`). Serial input slots only. */
    activate(name: string): Promise<void>;
  }

  interface ResultClient {
    /** The turn's result so far (null until a serial output slot sets it). */
    readonly value: JsonValue | null;
    /** Serial output slots only. */
    set(value: JsonValue): void;
  }

  interface BaseContext {
    readonly sessionId: string;
    readonly slotId: string;
    /** Absolute path of the slot's folder. */
    readonly slotPath: string;
    readonly phase: SlotPhase;
    readonly group: SlotGroup;
    /** The workspace folder the agent works in. */
    readonly workspace: string;
    readonly capability: CapabilityClient;
    /** Aborted when the slot times out or the turn is cancelled. */
    readonly signal: AbortSignal;
  }

  interface BootstrapContext extends BaseContext {
    readonly phase: 'bootstrap';
    readonly bootstrap: BootstrapClient;
  }

  interface TurnContext extends BaseContext {
    readonly turn: TurnInfo;
    readonly history: HistoryClient;
    readonly state: StateClient;
    readonly tools: ToolsClient;
    readonly agents: AgentsClient;
    readonly result: ResultClient;
  }

  interface InputContext extends TurnContext {
    readonly phase: 'input';
    readonly input: InputClient;
    readonly skills: SkillsClient;
  }

  interface OutputContext extends TurnContext {
    readonly phase: 'output';
    readonly output: OutputClient;
  }

  type SlotContext = BootstrapContext | InputContext | OutputContext;

  /** What a slot module exports (\`entrypoint: module:process\`). The return value is ignored. */
  type SlotEntrypoint<C extends SlotContext = SlotContext> = (ctx: C) => void | Promise<void>;
}
`;
