import type { EventSink } from '../events.js';
import { barrierLiveGrants } from '../permissions/live-grants.js';
import { defaultCatastropheContext } from '../permissions/catastrophic.js';
import { PermissionBarrier } from '../permissions/barrier.js';
import { SessionGrants } from '../permissions/session-grants.js';
import { type Prompter } from '../permissions/approval.js';
import { logRecord, toTurnEvent } from './barrier-events.js';
import { LruMap } from './lru-map.js';
import { onePromptAtATime } from './one-prompt.js';
import type { RuntimeDeps } from './runtime-deps.js';
import { promptTimeout } from './turn-helpers.js';

/**
 * Barriers kept for recent sessions (their "allow for this session" grants). A session evicted
 * after this many others were used asks again: it fails closed, never open.
 */
export const MAX_SESSION_BARRIERS = 64;

/**
 * One permission barrier per session (and per whether a person is present): it holds the
 * session's "allow for this session" grants, and streams its decisions to the surface of the
 * session's turn running now.
 */
export class SessionBarriers {
  private readonly barriers = new LruMap<string, { barrier: PermissionBarrier; sink: { emit: EventSink } }>(MAX_SESSION_BARRIERS);
  private oneAtATime: Prompter | null = null;

  constructor(private readonly deps: Pick<RuntimeDeps, 'config' | 'env' | 'paths' | 'log' | 'allowAlways' | 'pending' | 'prompter' | 'live' | 'saved'>) {}

  /** The surface's prompter, one question at a time across concurrent calls and sessions. */
  private get serialPrompter(): Prompter {
    this.oneAtATime ??= onePromptAtATime(this.deps.prompter!);
    return this.oneAtATime;
  }

  /** How many sessions' barriers are kept now. */
  get size(): number {
    return this.barriers.size;
  }

  for(agent: string, sessionId: string, personPresent: boolean, emit: EventSink): PermissionBarrier {
    const key = `${sessionId}\u0000${personPresent}`;
    let entry = this.barriers.get(key);
    if (!entry) {
      const sink = { emit };
      const grants = new SessionGrants();
      const { live, saved } = this.deps;
      live?.adopt(key, agent, sessionId, grants);
      const barrier = new PermissionBarrier({
        grants,
        ...(live || saved ? { live: barrierLiveGrants(live, saved)! } : {}),
        prompter: personPresent && this.deps.prompter ? this.serialPrompter : null,
        // Unanswered this long, a prompt is neither consent nor refusal: the call is parked.
        ...promptTimeout(this.deps.config()),
        pending: this.deps.pending,
        sessionId,
        persistAlwaysAllow: (agent, tool) => this.deps.allowAlways(agent, tool),
        // Commands that write into this Pepe's home are refused whatever was approved (issue 13).
        catastrophes: { ...defaultCatastropheContext(this.deps.env), pepeHome: this.deps.paths.home },
        onEvent: (e) => {
          sink.emit(toTurnEvent(e));
          this.deps.log.write(logRecord(e));
        },
      });
      entry = { barrier, sink };
      this.barriers.set(key, entry);
    }
    // The same session's next turn streams to its own surface callback.
    entry.sink.emit = emit;
    return entry.barrier;
  }
}
