import * as vscode from 'vscode';
import { TranscriptRenderer } from '../chat/transcript-renderer.js';
import { ChatArgs, parseArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { input, pickAgent } from './ui.js';

/**
 * Open Chat: sends a message to an agent and shows the turn (answer, tool calls, approvals,
 * results) in the "Pepe Chat" channel; the Stop button of the progress notification cancels the
 * turn. Returns the turn's result, so callers (keybindings, tests) get the transcript too.
 */
export async function chatOpen(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(ChatArgs, 'pepe.chat.open', raw);
  const pepe = await ctx.host.get();
  const agent = args.agent ?? ctx.active.resolve(pepe.config) ?? (await pickAgent(pepe, 'Pepe: Open Chat'));
  if (!pepe.config.agents?.[agent]) throw new Error(`unknown agent "${agent}"; add it with Pepe: Add Agent…`);
  const text = args.text ?? (await input({ title: `Pepe: chat with ${agent}`, prompt: 'Message', placeHolder: `Ask ${agent}…` }));
  const channel = ctx.transcript();
  channel.show(true);
  channel.appendLine(`you → ${agent}: ${text}`);
  const renderer = new TranscriptRenderer((t) => channel.append(t));
  const sessionId = args.sessionId ?? ctx.chatSessions.get(agent);
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Pepe: ${agent} is working…`, cancellable: true },
    async (_progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await pepe.run({ agent, text, sessionId, model: args.model, signal: controller.signal, personPresent: true, onEvent: (e) => renderer.render(e) });
      } finally {
        sub.dispose();
      }
    },
  );
  ctx.chatSessions.set(agent, result.sessionId);
  if (result.switchTo) await ctx.active.set(result.switchTo);
  ctx.refresh();
  return result;
}
