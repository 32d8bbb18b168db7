/**
 * What a person typed into a chat (the `pepe chat` prompt or the chat panel): a message for the
 * agent, or one of the chat's own commands. One parser, so both surfaces agree on the grammar.
 */
export type ChatInput =
  | { kind: 'message'; text: string }
  /** `/agent NAME`: hand the conversation to NAME (a new session with that agent). */
  | { kind: 'agent'; name: string }
  /** `/agent` without a name, or with more than one word: the usage, not a message to the model. */
  | { kind: 'agent_usage'; usage: string }
  | { kind: 'new' }
  /** `/trust`: the person read the outside content this conversation took in and trusts it again (spec 5.3). */
  | { kind: 'trust' }
  /** `/help`: the chat's commands and the prompt files that `/name` expands. */
  | { kind: 'help' }
  | { kind: 'exit' }
  /** `/plan`: plan mode from the next message (only tools that read run). `/act`: back to acting. */
  | { kind: 'mode'; plan: boolean }
  /** `/start [AGENT]`: leave plan mode and hand the last plan to this agent, or to AGENT in a new session. */
  | { kind: 'start'; agent?: string }
  | { kind: 'start_usage'; usage: string };

export const AGENT_COMMAND_USAGE = 'usage: /agent NAME (hand the conversation to the agent NAME)';

export const START_COMMAND_USAGE = 'usage: /start [AGENT] (carry out the last plan, here or with the agent AGENT)';

export function parseChatInput(raw: string): ChatInput {
  const text = raw.trim();
  if (text === '/exit' || text === '/quit') return { kind: 'exit' };
  if (text === '/new') return { kind: 'new' };
  if (text === '/trust') return { kind: 'trust' };
  if (text === '/help') return { kind: 'help' };
  if (text === '/plan') return { kind: 'mode', plan: true };
  if (text === '/act') return { kind: 'mode', plan: false };
  const start = /^\/start(?:\s+(.*))?$/s.exec(text);
  if (start) {
    const words = (start[1] ?? '').trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) return { kind: 'start' };
    return words.length === 1 ? { kind: 'start', agent: words[0]! } : { kind: 'start_usage', usage: START_COMMAND_USAGE };
  }
  const agent = /^\/agent(?:\s+(.*))?$/s.exec(text);
  if (agent) {
    const words = (agent[1] ?? '').trim().split(/\s+/).filter(Boolean);
    return words.length === 1 ? { kind: 'agent', name: words[0]! } : { kind: 'agent_usage', usage: AGENT_COMMAND_USAGE };
  }
  return { kind: 'message', text: raw };
}
