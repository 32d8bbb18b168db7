import type { RiskKind } from './risk.js';

/**
 * What the barrier remembers about one run (one turn of one agent; a routed callee gets a run of
 * its own, spec 6.2). Create one per run and mark it when outside content comes in: from then
 * on, for the rest of the run, pre-approval and the risk-free shell path go back to asking
 * (spec 5.3). A callee started by a run holding outside content starts with it too: the message
 * it was sent may carry what the caller read.
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
}

/** A fresh run; pass the caller's state for a routed callee (send_to_agent) so its taint carries over. */
export function newRunState(caller?: RunPermissionState): RunPermissionState {
  const state: RunPermissionState = { tookInOutsideContent: false, outsideContentSources: [], readOutsideWorkspace: false, taskGrants: [] };
  if (caller?.tookInOutsideContent) {
    state.tookInOutsideContent = true;
    state.outsideContentSources = caller.outsideContentSources.map((s) => `${s} (in the calling agent's run)`);
  }
  // Reading outside the workspace is data the caller may pass on, like outside content.
  if (caller?.readOutsideWorkspace) state.readOutsideWorkspace = true;
  if (caller?.secretFiles?.length) state.secretFiles = [...caller.secretFiles];
  if (caller?.planMode) state.planMode = true;
  return state;
}

export function markOutsideContent(state: RunPermissionState, source: string): void {
  state.tookInOutsideContent = true;
  if (!state.outsideContentSources.includes(source)) state.outsideContentSources.push(source);
}
