import type { TurnEvent } from '../../core/events.js';
import type { UsageRecord } from '../../core/runtime/usage.js';
import type { Usage } from '../../protocol/messages.js';

/** What the meter needs of the core's usage ledger (src/core/runtime/usage.ts). */
export interface UsageSource {
  onRecord(listener: (r: UsageRecord) => void): () => void;
  all(): UsageRecord[];
}

export const NO_USAGE: Usage = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };

function add(u: Usage, r: UsageRecord): Usage {
  return { calls: u.calls + 1, inputTokens: u.inputTokens + r.inputTokens, outputTokens: u.outputTokens + r.outputTokens, costUsd: u.costUsd + r.costUsd };
}

/**
 * One chat panel's tokens and cost, from the usage records the core writes for every model call:
 * per turn (the agent's own calls and those of the agents it consulted, known by the turn ids
 * their `turn_start` events carry) and per session (the calls recorded for this session, read once
 * when the panel shows the session, then kept up to date as records are written).
 */
export class UsageMeter {
  private turnIds = new Set<string>();
  private turn: Usage = NO_USAGE;
  private session: { id: string; usage: Usage } | null = null;
  private readonly stop: () => void;

  constructor(private readonly source: UsageSource) {
    this.stop = source.onRecord((r) => {
      if (r.turnId && this.turnIds.has(r.turnId)) this.turn = add(this.turn, r);
      if (this.session && r.sessionId === this.session.id) this.session.usage = add(this.session.usage, r);
    });
  }

  /** A turn starts: its calls are counted from here. */
  startTurn(): void {
    this.turnIds = new Set();
    this.turn = NO_USAGE;
  }

  /** Every event of the running turn: `turn_start`s name the turns (the top one and consulted agents'). */
  onEvent(e: TurnEvent): void {
    if (e.type === 'turn_start') this.turnIds.add(e.turnId);
  }

  /** The turn ended: its totals (null when no model call reported any usage). */
  endTurn(): Usage | null {
    const u = this.turn;
    this.turnIds = new Set();
    this.turn = NO_USAGE;
    return u.calls ? u : null;
  }

  /** This session's totals so far (null when none, or no session yet). */
  sessionUsage(sessionId: string | null): Usage | null {
    if (!sessionId) return null;
    if (this.session?.id !== sessionId) {
      let usage = NO_USAGE;
      for (const r of this.source.all()) if (r.sessionId === sessionId) usage = add(usage, r);
      this.session = { id: sessionId, usage };
    }
    return this.session.usage.calls ? this.session.usage : null;
  }

  dispose(): void {
    this.stop();
  }
}
