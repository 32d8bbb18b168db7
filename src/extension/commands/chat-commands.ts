import type { ChatArgs } from './args.js';
import { parseArgs, ChatArgs as ChatArgsSchema } from './args.js';
import type { CommandContext } from './command-context.js';

/**
 * Open Chat (spec 9.2): opens (or reveals) a chat panel for the agent and session. With `text`, the
 * message is sent as if typed and the command resolves with the turn's result, so keybindings
 * and tests can drive a turn without the webview.
 */
export async function chatOpen(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args: ChatArgs = parseArgs(ChatArgsSchema, 'pepe.chat.open', raw);
  // Without an agent, the chat opens for the active one (Switch Agent…, the status bar).
  const agent = args.agent ?? ctx.active.resolve((await ctx.host.get()).config);
  const panel = await ctx.chat.open({ agent, sessionId: args.sessionId, model: args.model, newSession: args.newSession });
  if (args.text === undefined) return { agent: panel.target.agent, sessionId: panel.target.sessionId };
  const result = await panel.send(args.text);
  if (result) ctx.refresh();
  return result;
}
