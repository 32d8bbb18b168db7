import type { Builtins } from '../slots/builtin/index.js';
import type { PepeConfig } from '../config/schema.js';
import type { Sdk } from '../cores/index.js';
import type { TurnResult } from '../events.js';
import type { EventLog } from '../log.js';
import type { CreateProviderOptions } from '../models/factory.js';
import type { PepePaths } from '../paths.js';
import type { LiveGrants } from '../permissions/live-grants.js';
import type { SavedOnDisk } from '../permissions/saved-on-disk.js';
import type { PendingApprovals } from '../permissions/pending.js';
import type { Prompter } from '../permissions/approval.js';
import type { SlotService } from '../slots/slot-service.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { McpManager } from '../mcp/manager.js';
import type { SessionStore } from './session-store.js';
import type { UsageLedger } from './usage.js';

type JsonValue = Sdk.JsonValue;

/**
 * What the runtime needs, and nothing more: it never reaches back into the facade (issue 11).
 * The facade (pepe.ts) wires these from its own parts.
 */
export interface RuntimeDeps {
  /** The configuration now; a running turn keeps the one it started with (spec 2). */
  config: () => PepeConfig;
  env: NodeJS.ProcessEnv;
  paths: PepePaths;
  slots: SlotService;
  builtins: Builtins;
  /** Where barrier decisions are recorded. */
  log: Pick<EventLog, 'write'>;
  /** Route edits made by set_route (through the config store). */
  routes: { add(from: string, to: string): Promise<boolean>; remove(from: string, to: string): Promise<boolean> };
  /** Spec 5.2 "Always": the tool joins the agent's persisted auto_approve. */
  allowAlways: (agent: string, tool: string) => Promise<void>;
  sessions: SessionStore;
  usage: UsageLedger;
  pending: PendingApprovals;
  prompter: Prompter | null;
  workspace: string;
  tools?: ToolRegistry;
  /** MCP servers' tools, per agent (its `mcp` selection); started on first use, kept across turns. */
  mcp?: Pick<McpManager, 'toolsFor' | 'preApproved' | 'dispose'>;
  providerOptions?: CreateProviderOptions;
  /** Workspace Trust (spec 7): when false, agent cores run only base_input/base_output. */
  trusted: () => boolean;
  /** The surface's way to write files (VS Code documents); absent: the file tools write to disk. */
  writeFile?: import('../tools/tool.js').FileWriter;
  /** VS Code's diagnostics after a file tool wrote (issue 25); absent in the CLI. */
  editorFeedback?: import('../tools/editor-feedback.js').EditorFeedback;
  /** What this process holds in memory that lets calls run unasked, published and revocable (issue 25). */
  live?: LiveGrants;
  /** config.json's saved approvals as on disk now: an entry revoked meanwhile is not used (issue 25). */
  saved?: SavedOnDisk;
  /** Hooks around each tool call of a turn (issue 24); absent or undefined: none. */
  hooks?: (turn: { agent: string; sessionId: string }) => import('./invoke-tool.js').ToolHooks | undefined;
}

export type RuntimeTurnResult = TurnResult & { coreResult?: JsonValue | null };
