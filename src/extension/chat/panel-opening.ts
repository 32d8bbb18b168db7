import { errorMessage } from '../../core/errors.js';
import type { ChatItem } from '../../protocol/messages.js';
import type { ChatDeps } from './chat-deps.js';
import { historyItems } from './history-items.js';

/** The conversation a panel opens on: its agent, its session and what the transcript starts with (null: as it is). */
export interface Opening {
  agent: string | null;
  sessionId: string | null;
  items: ChatItem[] | null;
}

/**
 * What a new or restored panel shows first: the agent it names (or the default one when it names
 * none that exists), the session's history, or a notice that the session or every agent is gone,
 * or that Pepe could not start.
 */
export async function openingConversation(deps: Pick<ChatDeps, 'getPepe' | 'defaultAgent'>, agent: string | null, sessionId: string | null): Promise<Opening> {
  const at: Opening = { agent, sessionId, items: null };
  try {
    const pepe = await deps.getPepe();
    if (!at.agent || !pepe.config.agents?.[at.agent]) at.agent = deps.defaultAgent?.(pepe) ?? Object.keys(pepe.config.agents ?? {})[0] ?? null;
    if (at.agent && at.sessionId) {
      if (pepe.sessionExists(at.agent, at.sessionId)) {
        at.items = historyItems(at.agent, pepe.sessionLoad(at.agent, at.sessionId).messages);
      } else {
        at.items = [{ kind: 'notice', level: 'warning', text: `Session ${at.sessionId} of ${at.agent} no longer exists; a new one starts with your next message.` }];
        at.sessionId = null;
      }
    }
    if (!at.agent) at.items = [{ kind: 'notice', level: 'info', text: 'No agents yet: add one with Pepe: Add Agent…' }];
  } catch (e) {
    at.items = [{ kind: 'notice', level: 'error', text: `Pepe could not start: ${errorMessage(e)}` }];
  }
  return at;
}
