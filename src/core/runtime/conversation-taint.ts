import type { EventSink } from '../events.js';
import { joinTaint, taintAdded, type ConversationTaint, type RunPermissionState } from '../permissions/run-state.js';
import type { SessionStore } from './session-store.js';

/**
 * Keeps a run's taint in its conversation (spec 5.3, revised): whatever marked the run (a tool,
 * the barrier, a child agent's answer, a parked call's replay), `save` writes what is new into the
 * session file right away, so the next turn, a resume in another process and a compacted
 * conversation all start from it. The surface is told when new outside content came in.
 */
export class ConversationTaintKeeper {
  private saved: ConversationTaint | null;

  constructor(
    private readonly sessions: Pick<SessionStore, 'appendTaint'>,
    private readonly agent: string,
    private readonly sessionId: string,
    private readonly run: RunPermissionState,
    saved: ConversationTaint | null,
    private readonly emit: { emit: EventSink },
    private readonly path: string[],
    /** Told once that the conversation withholds approvals (the live grants list it). */
    private readonly onTainted?: () => void,
  ) {
    this.saved = saved;
  }

  private noted = false;

  /** Writes what the run took in since the last save; idempotent, and cheap when nothing changed. */
  save(): void {
    const added = taintAdded(this.run, this.saved);
    if (added) {
      this.sessions.appendTaint(this.agent, this.sessionId, added);
      this.saved = joinTaint(this.saved, added);
      if (added.sources.length) this.emit.emit({ type: 'taint', path: this.path, sources: [...this.run.outsideContentSources] });
    }
    if (this.saved && !this.noted) {
      this.noted = true;
      this.onTainted?.();
    }
  }
}
