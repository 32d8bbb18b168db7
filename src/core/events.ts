import type { CoreEvent, PipelineSelection, ToolSelection } from './core-events.js';
import type { Message } from './messages.js';

/*
 * The event vocabulary of a turn: what a surface sends in (RunTurnOptions) and gets back
 * (TurnEvent, TurnResult). A leaf: it imports only types that describe data, never the runtime,
 * so tools, routing, the protocol and both hosts can depend on it without depending on each other.
 */

/**
 * What a turn streams to its surface (spec 4.1). A discriminated union: every surface switches
 * on `type` and the compiler checks each case. `path` is the route chain of the agent that emitted
 * the event (['triage'] for the top-level agent, ['triage', 'billing'] inside a routed call), so a
 * surface can nest a routed run's events under the call that started it.
 */
export type TurnEvent = { path: string[] } & (
  | { type: 'turn_start'; agent: string; sessionId: string; turnId: string; model: string | null }
  | { type: 'assistant_delta'; text: string }
  | { type: 'assistant_message'; content: string; toolCalls: { id: string; name: string; arguments: unknown }[]; model: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'approval_requested'; id: string; tool: string; arguments: unknown; chain: string[]; summary: string; reasons: string[] }
  | { type: 'approval_decided'; id: string; tool: string; allowed: boolean; by: string; decision: string | null; reason: string | null }
  /** Parked calls a person resolved since the last turn (spec 5.4): approved ones ran before this turn. */
  | { type: 'approval_followup'; items: { id: string; tool: string; arguments: unknown; status: 'ran' | 'failed' | 'denied'; content: string }[] }
  | { type: 'tool_result'; id: string; name: string; content: string; isError: boolean; untrusted: boolean }
  | { type: 'slot_fallback'; slot: string; occupant: string; reason: string; detail: string; outcome: 'builtin' | 'refused' | 'error' }
  | { type: 'route_call'; phase: 'start' | 'end'; id: string; from: string; to: string; chain: string[]; result?: string; isError?: boolean }
  | { type: 'compaction'; before: number; after: number; by: string }
  /**
   * The conversation holds outside content (spec 5.3): pre-approvals are paused until the person
   * trusts it again. Sent after turn_start when it already did, and whenever a new source comes in.
   */
  | { type: 'taint'; sources: string[] }
  /**
   * The project instruction files given to the model (issue 24): at the turn's start, and again
   * for the nested AGENTS.md files a file tool's folder brought in. `cut`: over a cap; `leftOut`:
   * found but over the total cap.
   */
  | { type: 'instructions'; files: { name: string; cut: boolean }[]; leftOut: string[] }
  /** From an agent core's pipeline (spec 7): progress, notices, soft slot failures, restricted mode. */
  | { type: 'core'; event: CoreEvent }
  | { type: 'model_fallback'; from: string; to: string | null; error: string }
  | { type: 'error'; message: string; recoverable: boolean }
  | { type: 'turn_end'; agent: string; sessionId: string; turnId: string; content: string; status: TurnStatus; error?: string; switchTo?: string }
);

/** `budget`: a model call could have exceeded a budget (limits.max_cost, a project's cap), so it was not made. */
export type TurnStatus = 'ok' | 'error' | 'cancelled' | 'max_steps' | 'loop_guard' | 'budget';

export type TurnEventOf<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

export type EventSink = (event: TurnEvent) => void;

/** The turn's visible outcome, as `pepe run --json` reports it last. */
export interface TurnResult {
  agent: string;
  sessionId: string;
  turnId: string;
  content: string;
  status: TurnStatus;
  error?: string;
  /** Set when the agent (or the user) asked to hand the conversation to another agent (spec 6.3). */
  switchTo?: string;
  /**
   * True when the conversation holds outside content (spec 5.3): taken in by this run or an
   * earlier turn of its session and not trusted again since; a routed or core caller inherits it.
   */
  tookInOutsideContent: boolean;
  /** The turn ran in plan mode (spec 10): its answer is a plan a person may start. */
  planMode?: boolean;
  messages: Message[];
}

/**
 * Who started a session: a person (`user`), another agent's consultation (`routed`), an agent
 * core's child agent (`child`) or a heartbeat pulse (`heartbeat`). Hosts filter on it (a chat's
 * history shows `user` sessions) instead of guessing from titles.
 */
export const SESSION_ORIGINS = ['user', 'routed', 'child', 'heartbeat'] as const;
export type SessionOrigin = (typeof SESSION_ORIGINS)[number];

/** One turn of one agent, as a surface asks for it (spec 4.1). */
/**
 * Discovery the hops of one top-level turn share (issue 27; runtime/turn-shared.ts): the runtime
 * makes one per top-level turn and routing hands it to each callee.
 */
export interface TurnSharedCache {
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** A tool call that may change the workspace starts or ends: forget what was found. */
  changed(): void;
}

export interface RunTurnOptions {
  agent: string;
  text: string;
  /** Set by routing for a callee: the top-level turn's shared discovery; absent: a fresh one. */
  shared?: TurnSharedCache;
  /** Resume this session; a new one is started when absent. */
  sessionId?: string;
  /** An explicit model bypasses the model_select slot (spec 3.3). */
  model?: string;
  signal?: AbortSignal;
  onEvent?: EventSink;
  /** Route chain of the caller for a routed run (spec 6.2); empty for a user's turn. */
  parentChain?: string[];
  /** False when nobody can be asked (pepe run without a TTY, --no-input, heartbeat). */
  personPresent?: boolean;
  /** Title for a new session (routed runs are titled after their caller's chain). */
  sessionTitle?: string;
  /** Who starts a new session (default: `routed` with a parent chain, else `user`). */
  origin?: SessionOrigin;
  /**
   * What the surface says about this turn (agent cores read it as `ctx.turn.metadata`): `channel`
   * names the surface (`cli`, `vscode-chat`, `vscode-participant`…); routed, child and heartbeat
   * runs get their origin as the channel when nothing else is given.
   */
  metadata?: Record<string, string | number | boolean | null>;
  /**
   * The calling run's taint, for a routed or child run: outside content the caller took in (or
   * files it read outside the workspace) starts the callee's run tainted too, so asking another
   * agent never launders it.
   */
  callerRun?: { tookInOutsideContent: boolean; outsideContentSources: string[]; readOutsideWorkspace?: boolean; secretFiles?: string[]; planMode?: boolean };
  /**
   * Plan mode for this turn (spec 10): only tools that read run, the agent answers with a plan.
   * Absent: the agent's `plan_mode` setting. A routed or child run inherits its caller's.
   */
  planMode?: boolean;
  /**
   * Context the person attached (issue 17: @file, @folder, @selection, @problems, @terminal): added
   * after the text in the user's message, so the transcript records what the model was given.
   * Validated and capped by context-attachments.ts.
   */
  attachments?: { kind: 'file' | 'folder' | 'selection' | 'problems' | 'terminal'; label: string; content: string }[];
  /**
   * Pictures sent with the text (issue 25): checked by images.ts, carried on the user's message,
   * refused before any request by a model that does not take images.
   */
  images?: { type: 'image'; media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string; name?: string }[];
  /** For a child agent run by an agent core (spec 7): which pipeline slots and tools it gets. */
  child?: { input: PipelineSelection; output: PipelineSelection; tools: ToolSelection; useBootstrap: boolean };
}
