import * as vscode from 'vscode';
import type { TurnEvent } from '../../core/events.js';
import type { Pepe } from '../../core/pepe.js';

/**
 * `@pepe` in VS Code's own chat: the request goes to a Pepe agent, which runs a whole turn (routes,
 * slots, the barrier with its modal approvals) and streams its answer back. `/agent NAME text`
 * picks the agent for one request; otherwise the active agent answers. A conversation keeps one
 * Pepe session per agent (its id rides in each answer's metadata).
 */

export const PARTICIPANT_ID = 'pepe.participant';

export interface ParticipantDeps {
  getPepe: () => Promise<Pepe>;
  /** The agent that answers when the request names none. */
  defaultAgent: (pepe: Pepe) => string | null;
  log: vscode.LogOutputChannel;
}

/** What a request's answer remembers, so the next request of the conversation resumes the session. */
export interface PepeChatMetadata {
  agent: string;
  sessionId: string;
}

/** The part of vscode.ChatResponseStream the handler uses (the tests pass a recording one). */
export type ParticipantStream = Pick<vscode.ChatResponseStream, 'markdown' | 'progress'>;

export function registerParticipant(deps: ParticipantDeps): vscode.Disposable {
  // An editor without the chat (some builds, older hosts) just has no @pepe.
  if (typeof vscode.chat?.createChatParticipant !== 'function') {
    deps.log.info('VS Code\'s chat is not available here: @pepe is not registered');
    return { dispose: () => undefined };
  }
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => handleRequest(deps, request, context, stream, token));
  participant.iconPath = new vscode.ThemeIcon('hubot');
  return participant;
}

export async function handleRequest(
  deps: ParticipantDeps,
  request: Pick<vscode.ChatRequest, 'prompt' | 'command'>,
  context: Pick<vscode.ChatContext, 'history'>,
  stream: ParticipantStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const pepe = await deps.getPepe();
  let text = request.prompt.trim();
  let agent: string | null = null;
  if (request.command === 'agent') {
    const m = /^(\S+)\s*([\s\S]*)$/.exec(text);
    agent = m?.[1] ?? null;
    text = m?.[2]?.trim() ?? '';
  }
  agent ??= lastAgent(context) ?? deps.defaultAgent(pepe);
  if (!agent || !pepe.config.agents?.[agent]) {
    const known = Object.keys(pepe.config.agents ?? {});
    stream.markdown(known.length ? `No agent ${agent ? `named **${agent}**` : 'is active'}. Use \`/agent NAME\` with one of: ${known.join(', ')}.` : 'Pepe has no agents yet: run **Pepe: Add Agent** first.');
    return { errorDetails: { message: 'no such agent' } };
  }
  if (!text) {
    stream.markdown(`Ask **${agent}** something after the agent name.`);
    return {};
  }

  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  const sessionId = sessionFor(context, agent, pepe);
  let streamed = false;
  const onEvent = (e: TurnEvent) => {
    if (e.path.length !== 1) return; // a routed callee's own steps stay inside its call
    if (e.type === 'assistant_delta') {
      stream.markdown(e.text);
      streamed = true;
    } else if (e.type === 'tool_call') stream.progress(`${agent} runs ${e.name}…`);
    else if (e.type === 'route_call' && e.phase === 'start') stream.progress(`${e.from} consults ${e.to}…`);
    else if (e.type === 'error' && e.recoverable) stream.progress(e.message);
  };
  try {
    const result = await pepe.run({ agent, text, ...(sessionId ? { sessionId } : {}), signal: controller.signal, onEvent, sessionTitle: text.slice(0, 60), metadata: { channel: 'vscode-participant' } });
    if (!streamed && result.content) stream.markdown(result.content);
    const metadata: PepeChatMetadata = { agent, sessionId: result.sessionId };
    if (result.status === 'error') return { errorDetails: { message: result.error ?? 'the turn failed' }, metadata };
    return { metadata };
  } catch (e) {
    deps.log.error(`@pepe: ${e instanceof Error ? e.message : String(e)}`);
    return { errorDetails: { message: e instanceof Error ? e.message : String(e) } };
  } finally {
    cancel.dispose();
  }
}

function answers(context: Pick<vscode.ChatContext, 'history'>): PepeChatMetadata[] {
  const out: PepeChatMetadata[] = [];
  for (const turn of context.history) {
    const meta = (turn as { result?: vscode.ChatResult }).result?.metadata as Partial<PepeChatMetadata> | undefined;
    if (typeof meta?.agent === 'string' && typeof meta.sessionId === 'string') out.push({ agent: meta.agent, sessionId: meta.sessionId });
  }
  return out;
}

/** The agent that answered last in this conversation (it keeps answering until /agent names another). */
function lastAgent(context: Pick<vscode.ChatContext, 'history'>): string | null {
  return answers(context).at(-1)?.agent ?? null;
}

function sessionFor(context: Pick<vscode.ChatContext, 'history'>, agent: string, pepe: Pepe): string | undefined {
  const id = answers(context).filter((a) => a.agent === agent).at(-1)?.sessionId;
  return id && pepe.sessionExists(agent, id) ? id : undefined;
}
