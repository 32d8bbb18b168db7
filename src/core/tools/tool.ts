import * as z from '../zod.js';
import type { AgentConfig, PepeConfig } from '../config/schema.js';
import type { Builtins } from '../slots/builtin/index.js';
import type { PepePaths } from '../paths.js';
import type { TurnEvent } from '../events.js';
import type { SlotEvents, SlotService } from '../slots/slot-service.js';
import type { SkillCatalog } from '../interop/skill-types.js';
import type { RootRealPaths } from './paths.js';

/** What a tool returns to the model. `untrusted` marks outside content (spec 5.3). */
export interface ToolOutcome {
  content: string;
  isError?: boolean;
  untrusted?: boolean;
}

/** Everything a tool may use while it runs: the turn's own view of the world. */
export interface ToolContext {
  agent: string;
  agentConfig: AgentConfig;
  /** Route chain ending with this agent (['triage', 'billing'] inside a routed call). */
  chain: string[];
  sessionId: string;
  /** The workspace: default cwd for commands, root for relative paths. */
  workspace: string;
  signal: AbortSignal;
  config: PepeConfig;
  env: NodeJS.ProcessEnv;
  paths: PepePaths;
  slots: SlotService;
  builtins: Builtins;
  emit: (event: TurnEvent) => void;
  /** Set by tools when outside content enters the run (web results, files outside the workspace). */
  markOutsideContent: (source: string) => void;
  /** Where the outside content this run holds came from (empty when none); `remember` stores it with the note. */
  outsideContent?: () => readonly string[];
  /** Routing (send_to_agent, switch_agent, set_route) is provided by the runtime when available. */
  routing?: RoutingHooks;
  /**
   * Set per call by the tool invoker: true only when the person approved this very call with its
   * "network" risk shown. The built-in sandbox runs with the network only then (spec 3.5).
   */
  allowNetwork?: boolean;
  /**
   * Set per call by the tool invoker: what `resolve` found and the barrier judged. A tool acts on
   * these (the command's directory, the real paths), never on a second reading of its arguments.
   */
  facts?: ToolFacts;
  /**
   * Workspace Trust: false in Restricted Mode (an untrusted folder), where the invoker runs no
   * tool that runs code or writes (tools/restricted.ts). Absent: trusted (the CLI).
   */
  workspaceTrusted?: boolean;
  /**
   * Set by the runtime per turn: the tool invoker awaits it right before a call that may change
   * files runs (any tool that is not free), so the turn's checkpoint is taken first (issue 17).
   */
  beforeChange?: () => Promise<void>;
  /**
   * Set by a surface that holds open documents (VS Code): write_file and edit_file hand it the
   * file's new content instead of writing it themselves, after every check, so open editors
   * update, an unsaved buffer is never overwritten (it throws ToolRefusal) and undo works.
   */
  writeFile?: FileWriter;
  /**
   * Set by a surface with language tooling (VS Code): after write_file or edit_file changed a
   * file, the new errors and warnings reported for it are added to the result (editor-feedback.ts).
   */
  editorFeedback?: import('./editor-feedback.js').EditorFeedback;
  /** The skills this turn can load (load_skill); set by the runtime. Absent: none. */
  skills?: SkillCatalog;
  /** Set by the runtime per turn: the workspace's and $PEPE_HOME's real paths, followed once. Absent: followed on every call. */
  rootPaths?: RootRealPaths;
}

/** One file change a file tool has checked and computed. */
export interface FileWrite {
  /** The path as the model wrote it. */
  requested: string;
  /** The checked real path (no link in it). */
  real: string;
  /** The file did not exist before this call (the tool created it empty; `after` is its content). */
  created: boolean;
  /** The new content, exactly (line ends and BOM as they are to be on disk). */
  after: Buffer;
}
export type FileWriter = (change: FileWrite) => Promise<void>;

/**
 * One path a tool call would touch, resolved before the barrier sees the call, so the barrier
 * judges where the call really goes (the real path, every link followed), not what it says.
 */
export interface PathFact {
  /** As the model wrote it. */
  requested: string;
  /** Absolute, every symbolic link followed (for a file that does not exist yet: its real folder + name). */
  real: string;
  access: 'read' | 'write';
  /** The real path is inside the (real) workspace. */
  inside: boolean;
  /** The real path is inside $PEPE_HOME (config, plugins, approvals): writes there are always asked. */
  inPepeHome: boolean;
  /** True when `requested` (resolved lexically) and `real` differ: a link is followed. */
  viaLink: boolean;
}

/** What the invoker learns about a call before the barrier: where it runs and what it touches. */
export interface ToolFacts {
  /** Absolute directory a command runs in. */
  cwd?: string;
  paths?: PathFact[];
  /** What the tool says about itself (an MCP tool's annotations): shown to the person, never a grant. */
  notes?: string[];
  /** An MCP tool whose server says it only reads: in plan mode it may reach the barrier, nothing more. */
  readOnlyHint?: boolean;
}

/** Thrown by `Tool.resolve` for a call that must never run (a device, /proc): the model gets the message. */
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

export interface RoutingHooks {
  sendToAgent(to: string, message: string): Promise<ToolOutcome>;
  switchAgent(target: string): Promise<ToolOutcome>;
  setRoute(from: string, to: string, action: 'allow' | 'deny'): Promise<ToolOutcome>;
}

export interface Tool<I = unknown> {
  name: string;
  description: string;
  input: z.ZodMiniType<I, any>;
  execute(args: I, ctx: ToolContext): Promise<ToolOutcome>;
  /**
   * Optional: resolve what the call touches before the barrier is asked (validate → resolve →
   * barrier → execute). May throw ToolRefusal. The facts are shown to the barrier and kept with a
   * parked call, so a later approval runs exactly what the person saw.
   */
  resolve?(args: I, ctx: ToolContext): Promise<ToolFacts>;
}

/** Helper so each tool file infers its input type from its schema. */
export function defineTool<const N extends string, S extends z.ZodMiniType>(tool: {
  name: N;
  description: string;
  input: S;
  execute(args: z.output<S>, ctx: ToolContext): Promise<ToolOutcome>;
  resolve?(args: z.output<S>, ctx: ToolContext): Promise<ToolFacts>;
}): Tool<z.output<S>> & { readonly name: N } {
  return tool as unknown as Tool<z.output<S>> & { readonly name: N };
}

/** Where a tool's slot call tells the surface that it fell back: the turn's own event stream. */
export function slotEvents(ctx: ToolContext): SlotEvents {
  return { emit: ctx.emit, path: ctx.chain };
}

/** Outside content's mark lives in outside-content.ts; re-exported for the tools that wrap it. */
export { untrustedBlock } from './outside-content.js';
