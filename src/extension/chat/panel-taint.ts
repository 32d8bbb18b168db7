import { visibleLine } from '../../core/display.js';
import type { Pepe } from '../../core/pepe.js';
import type { TurnEvent } from '../../core/events.js';

/**
 * What a chat panel knows of its conversation's outside content (spec 5.3): read from the session
 * when the panel shows it, updated from the turn's `taint` events, and cleared only when the
 * person asks (the header's "Trust again" or `/trust`), through the core.
 */
export class PanelTaint {
  /** null: not read yet for the session shown. */
  private sources: string[] | null = null;

  /** Another conversation is shown: read again when asked. */
  forget(): void {
    this.sources = null;
  }

  current(pepe: Pepe, agent: string | null, sessionId: string | null): string[] {
    if (!agent || !sessionId) return [];
    if (this.sources === null) {
      try {
        this.sources = pepe.sessionExists(agent, sessionId) ? (pepe.sessionLoad(agent, sessionId).taint?.sources ?? []).map(visibleLine) : [];
      } catch {
        return [];
      }
    }
    return this.sources;
  }

  /** True when the event changed what the header shows (only the panel's own agent, not a routed callee). */
  onEvent(event: TurnEvent): boolean {
    if (event.type !== 'taint' || event.path.length !== 1) return false;
    // Sources name what a model or a page chose (file paths, servers): shown inert.
    this.sources = event.sources.map(visibleLine);
    return true;
  }

  /** The person's explicit action; the text says what happened, for the conversation. */
  trust(pepe: Pepe, agent: string | null, sessionId: string | null, busy: boolean): string {
    if (!agent || !sessionId || !pepe.sessionExists(agent, sessionId)) return 'Nothing to trust: this conversation has taken in no outside content.';
    const { wasTainted } = pepe.trustSession(agent, sessionId);
    this.sources = [];
    if (!wasTainted) return 'Nothing to trust: this conversation has taken in no outside content.';
    return `You trusted this conversation again: pre-approved calls run without asking ${busy ? 'from the next turn (the running turn keeps asking)' : 'from the next message'}.`;
  }
}
