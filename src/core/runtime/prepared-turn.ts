import type { AgentConfig, PepeConfig } from '../config/schema.js';
import type { Sdk } from '../cores/index.js';
import type { EventSink, RunTurnOptions, TurnStatus } from '../events.js';
import type { ImagePart } from '../images.js';
import type { Message } from '../messages.js';
import type { ApprovedCall } from '../permissions/pending.js';
import type { PermissionBarrier } from '../permissions/barrier.js';
import type { RunPermissionState } from '../permissions/run-state.js';
import type { Tool, ToolContext, ToolOutcome } from '../tools/tool.js';
import type { ConversationTaintKeeper } from './conversation-taint.js';
import type { FollowUpItem } from './follow-up.js';
import type { InvokeEnv } from './invoke-tool.js';
import type { LoadedSession } from './session-store.js';
import type { TurnInterop } from './turn-interop.js';

type JsonValue = Sdk.JsonValue;

/** Runs a parked call a person approved, as approved (the tool invoker's replay path). */
export type Replay = (parked: ApprovedCall) => Promise<ToolOutcome & { ran: boolean }>;

/** Everything `prepare` settles before the turn's work starts. */
export interface PreparedTurn {
  opts: RunTurnOptions;
  config: PepeConfig;
  agentConfig: AgentConfig;
  chain: string[];
  signal: AbortSignal;
  emit: EventSink;
  turnId: string;
  sessionId: string;
  session: LoadedSession;
  persist: (m: Message) => void;
  personPresent: boolean;
  run: RunPermissionState;
  /** Writes the run's taint into its session as it changes (the conversation keeps it). */
  taint: ConversationTaintKeeper;
  barrier: PermissionBarrier;
  tools: Tool<any>[];
  toolContext: ToolContext;
  invokeEnv: InvokeEnv;
  switchTo: () => string | undefined;
  /** The user's text, after the results of parked calls resolved since the last turn. */
  rawText: string;
  /** Pictures sent with it, checked (images.ts). */
  images: ImagePart[];
  followUp: FollowUpItem[] | null;
  /** Told to the person once the turn starts (an MCP server that could not start: the turn goes on without it). */
  notices: string[];
  /** The project's instruction files and the skills this turn may load (issue 24). */
  interop: TurnInterop;
}

export interface TurnOutcome {
  content: string;
  status: TurnStatus;
  error?: string;
  messages: Message[];
  coreResult: JsonValue | null;
}
