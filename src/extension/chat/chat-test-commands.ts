import * as vscode from 'vscode';
import type { ChatItem } from '../../protocol/messages.js';
import type { ChatPanels, OpenChatArgs } from './chat-panels-api.js';
import { syntheticAnswer, syntheticHistory } from './synthetic-turn.js';

/**
 * Commands for tests only, registered outside production mode and contributed nowhere:
 * - `pepe.chat.test.open` opens a panel exactly like the final `pepe.chat.open` wiring does;
 * - `pepe.chat.test.panels` lists the open panels' agents and sessions;
 * - `pepe.chat.test.feed` plays a synthetic long conversation through the real host → webview
 *   path (protocol, batching, validation, rendering) to measure rendering (docs/chat.md).
 */
export function registerChatTestCommands(panels: ChatPanels): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('pepe.chat.test.open', async (args?: OpenChatArgs) => {
      const p = await panels.open(args ?? {});
      return p.target;
    }),
    vscode.commands.registerCommand('pepe.chat.test.panels', () => panels.panels.map((p) => ({ ...p.target, busy: p.busy }))),
    vscode.commands.registerCommand('pepe.chat.test.feed', (args: FeedArgs) => feed(panels, args)),
    // The measurement of docs/chat.md, runnable from the palette: 1,000 messages, then 20,000 tokens.
    vscode.commands.registerCommand('pepe.chat.test.bench', () =>
      feed(panels, { history: 1000, tokens: 20_000, tokensPerSecond: Number(process.env.PEPE_CHAT_BENCH_TPS) || 200 }),
    ),
  ];
}

interface FeedArgs {
  history: number;
  tokens: number;
  tokensPerSecond: number;
  agent?: string;
}

async function feed(panels: ChatPanels, args: FeedArgs): Promise<{ ms: number; tokens: number; chars: number }> {
  const panel = panels.panels.at(-1);
  if (!panel) throw new Error('no chat panel is open');
  const agent = args.agent ?? panel.target.agent ?? 'bench';
  panel.resetForTest(syntheticHistory(agent, args.history));
  await new Promise((r) => setTimeout(r, 500));
  const path = [agent];
  const started = Date.now();
  const tokens = syntheticAnswer(args.tokens);
  panel.pushForTest([{ kind: 'user', text: 'Write the long answer.' }, event({ type: 'turn_start', path, agent, sessionId: 'synthetic', turnId: 't', model: 'synthetic' })]);
  const tickMs = 16;
  let sent = 0;
  while (sent < tokens.length) {
    const due = Math.min(tokens.length, Math.floor(((Date.now() - started + tickMs) / 1000) * args.tokensPerSecond));
    if (due > sent) panel.pushForTest(tokens.slice(sent, due).map((text) => event({ type: 'assistant_delta', path, text })));
    sent = Math.max(sent, due);
    await new Promise((r) => setTimeout(r, tickMs));
  }
  const content = tokens.join('');
  panel.pushForTest([
    event({ type: 'assistant_message', path, content, toolCalls: [], model: 'synthetic' }),
    event({ type: 'turn_end', path, agent, sessionId: 'synthetic', turnId: 't', content, status: 'ok' }),
  ]);
  return { ms: Date.now() - started, tokens: tokens.length, chars: content.length };
}

function event(e: Extract<ChatItem, { kind: 'event' }>['event']): ChatItem {
  return { kind: 'event', event: e };
}
