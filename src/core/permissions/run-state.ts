import type { RiskKind } from './risk.js';

/**
 * What the barrier remembers about one run (one turn of one agent; a routed callee gets a run of
 * its own, spec 6.2). Create one per run and mark it when outside content comes in: from then
 * on pre-approval and the risk-free shell path go back to asking (spec 5.3). A callee started by
 * a run holding outside content starts with it too: the message it was sent may carry what the
 * caller read. Taint belongs to the conversation, not the turn (spec 5.3, revised): a run starts
 * with what its session kept (`ConversationTaint`, written by the runtime as it changes).
 */
export interface RunPermissionState {
  tookInOutsideContent: boolean;
  /** Where it came from ("web_search", "read_file /etc/hosts", "send_to_agent researcher"), for the prompt. */
  outsideContentSources: string[];
  /** The run was allowed to read files outside the workspace (outbound channels ask from then on). */
  readOutsideWorkspace?: boolean;
  /** Files that look like they hold secrets (`.env`, keys) the run read or named in a command: outbound channels ask. */
  secretFiles?: string[];
  /** "Allow for the rest of this task": tool and risks shown, per agent; given while tainted or not. */
  taskGrants?: TaskGrant[];
  /** Plan mode (spec 10): only tools that read run; a routed callee's run inherits it. */
  planMode?: boolean;
}

export interface TaskGrant {
  agent: string;
  tool: string;
  risks: RiskKind[];
  /** The programs shown, for a grant covering an unknown program (covered only by name). */
  programs?: string[];
  /** Given after outside content came in: the person saw that, so it stands. */
  givenWhileTainted: boolean;
  /** When it was given (ms since the epoch): a revocation written later takes it away. */
  at?: number;
}

/**
 * What a conversation keeps of its runs (spec 5.3, revised): the outside content it took in (only
 * the person clears that, "trust this conversation again") and whether it read outside the
 * workspace or secret-looking files (outbound channels keep asking; trusting the text does not
 * take those out of the conversation).
 */
export interface ConversationTaint {
  sources: string[];
  readOutsideWorkspace?: boolean;
  secretFiles?: string[];
}

/**
 * A fresh run; pass the caller's state for a routed callee (send_to_agent) so its taint carries
 * over, and the session's `ConversationTaint` so what earlier turns took in still counts.
 */
export function newRunState(caller?: RunPermissionState, conversation?: ConversationTaint | null): RunPermissionState {
  const state: RunPermissionState = { tookInOutsideContent: false, outsideContentSources: [], readOutsideWorkspace: false, taskGrants: [] };
  if (conversation) {
    for (const s of conversation.sources) markOutsideContent(state, s);
    if (conversation.readOutsideWorkspace) state.readOutsideWorkspace = true;
    if (conversation.secretFiles?.length) state.secretFiles = [...conversation.secretFiles];
  }
  if (caller?.tookInOutsideContent) {
    for (const s of caller.outsideContentSources) markOutsideContent(state, `${s} (in the calling agent's run)`);
  }
  // Reading outside the workspace is data the caller may pass on, like outside content.
  if (caller?.readOutsideWorkspace) state.readOutsideWorkspace = true;
  for (const f of caller?.secretFiles ?? []) if (!(state.secretFiles ??= []).includes(f)) state.secretFiles.push(f);
  if (caller?.planMode) state.planMode = true;
  return state;
}

export function markOutsideContent(state: RunPermissionState, source: string): void {
  state.tookInOutsideContent = true;
  if (!state.outsideContentSources.includes(source)) state.outsideContentSources.push(source);
}

/** What the run holds that `saved` (what its conversation kept so far) does not: null when nothing. */
export function taintAdded(state: RunPermissionState, saved: ConversationTaint | null): ConversationTaint | null {
  const sources = state.tookInOutsideContent ? state.outsideContentSources.filter((s) => !saved?.sources.includes(s)) : [];
  const readOutside = state.readOutsideWorkspace === true && saved?.readOutsideWorkspace !== true;
  const secretFiles = (state.secretFiles ?? []).filter((f) => !saved?.secretFiles?.includes(f));
  if (!sources.length && !readOutside && !secretFiles.length) return null;
  return { sources, ...(readOutside ? { readOutsideWorkspace: true } : {}), ...(secretFiles.length ? { secretFiles } : {}) };
}

/** `base` with `added` joined in (what a conversation holds after one more change). */
export function joinTaint(base: ConversationTaint | null, added: ConversationTaint): ConversationTaint {
  const sources = [...(base?.sources ?? [])];
  for (const s of added.sources) if (!sources.includes(s)) sources.push(s);
  const secretFiles = [...(base?.secretFiles ?? [])];
  for (const f of added.secretFiles ?? []) if (!secretFiles.includes(f)) secretFiles.push(f);
  const readOutside = base?.readOutsideWorkspace === true || added.readOutsideWorkspace === true;
  return { sources, ...(readOutside ? { readOutsideWorkspace: true } : {}), ...(secretFiles.length ? { secretFiles } : {}) };
}
