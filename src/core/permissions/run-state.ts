/**
 * What the barrier remembers about one run (one turn of one agent; a routed callee gets a run of
 * its own, spec 6.2). Create one per run and mark it when outside content comes in: from then
 * on, for the rest of the run, pre-approval and the risk-free shell path go back to asking
 * (spec 5.3).
 */
export interface RunPermissionState {
  tookInOutsideContent: boolean;
  /** Where it came from ("web_search", "read_file /etc/hosts", "send_to_agent researcher"), for the prompt. */
  outsideContentSources: string[];
}

export function newRunState(): RunPermissionState {
  return { tookInOutsideContent: false, outsideContentSources: [] };
}

export function markOutsideContent(state: RunPermissionState, source: string): void {
  state.tookInOutsideContent = true;
  if (!state.outsideContentSources.includes(source)) state.outsideContentSources.push(source);
}
