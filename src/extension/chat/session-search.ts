import type { SessionOrigin, SessionStore } from '../../core/runtime/session-store.js';
import { sessionMatches } from '../../core/runtime/session-export.js';
import type { SessionSummary } from '../../protocol/messages.js';
import { sessionSummaries } from './history-items.js';

/** How many of the newest sessions a search reads through (each one is loaded from disk). */
export const MAX_SEARCHED_SESSIONS = 500;

type Sessions = Pick<SessionStore, 'load'> & { list(agent?: string, filter?: { origins?: readonly SessionOrigin[] }): ReturnType<SessionStore['list']> };

/**
 * The history list for a search (issue 25): the sessions with every word of `query` in their
 * title, agent, id or messages — the same test as `pepe sessions list --search`. A session that
 * cannot be read is left out rather than failing the search.
 */
export function searchSessions(sessions: Sessions, query: string | undefined): SessionSummary[] {
  const all = sessionSummaries(sessions);
  if (!query?.trim()) return all;
  return all.slice(0, MAX_SEARCHED_SESSIONS).filter((s) => {
    try {
      return sessionMatches(sessions.load(s.agent, s.id, { keep: false }), query);
    } catch {
      return false;
    }
  });
}
