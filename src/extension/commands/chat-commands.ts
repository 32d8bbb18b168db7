import * as vscode from 'vscode';
import { agentModelProblem } from '../models/usable.js';
import type { ChatArgs } from './args.js';
import { parseArgs, ChatArgs as ChatArgsSchema } from './args.js';
import type { CommandContext } from './command-context.js';
import { Cancelled, pick } from './ui.js';

/**
 * Open Chat (spec 9.2): opens (or reveals) a chat panel for the agent and session. With `text`, the
 * message is sent as if typed and the command resolves with the turn's result, so keybindings
 * and tests can drive a turn without the webview. From the palette with several agents, it asks
 * which one (the active agent first).
 */
export async function chatOpen(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args: ChatArgs = parseArgs(ChatArgsSchema, 'pepe.chat.open', raw);
  const pepe = await ctx.host.get();
  const active = ctx.active.resolve(pepe.config);
  let agent = args.agent;
  if (!agent && (raw === undefined || raw === null)) {
    const names = Object.keys(pepe.config.agents ?? {});
    if (!names.length) {
      const choice = await vscode.window.showInformationMessage('Pepe: there is no agent to chat with yet.', 'Add Agent…');
      if (choice) await vscode.commands.executeCommand('pepe.agent.add');
      throw new Cancelled();
    }
    if (names.length > 1) {
      const ordered = [...names].sort((a, b) => Number(b === active) - Number(a === active));
      agent = (
        await pick(
          ordered.map((n) => ({ label: n, description: [pepe.agentList().find((a) => a.name === n)?.model ?? 'the default model', n === active ? 'active' : null].filter(Boolean).join(' · ') })),
          { title: 'Pepe: Open Chat with…', placeHolder: 'agent' },
        )
      ).label;
    }
  }
  // Without an agent, the chat opens for the active one (Switch Agent…, the status bar).
  agent ??= active;
  if (agent && !args.model) warnUnusable(ctx, agent);
  const panel = await ctx.chat.open({ agent, sessionId: args.sessionId, model: args.model, newSession: args.newSession });
  if (args.text === undefined) return { agent: panel.target.agent, sessionId: panel.target.sessionId };
  const result = await panel.send(args.text);
  if (result) ctx.refresh();
  return result;
}

/** Says up front when the agent cannot answer (the turn would fail with the same reason). */
function warnUnusable(ctx: CommandContext, agent: string): void {
  const pepe = ctx.host.current;
  if (!pepe) return;
  const problem = agentModelProblem(pepe.config, agent, pepe.env);
  if (!problem) return;
  const key = /no API key stored for (\w+)/.exec(problem)?.[1];
  const actions = key ? ['Set API Key…', 'Edit Agent…'] : ['Add Model…', 'Edit Agent…'];
  void vscode.window.showWarningMessage(`Pepe: agent ${agent} has ${problem}.`, ...actions).then((choice) => {
    if (choice === 'Set API Key…') void vscode.commands.executeCommand('pepe.apiKey.set', { name: key });
    else if (choice === 'Add Model…') void vscode.commands.executeCommand('pepe.model.add');
    else if (choice === 'Edit Agent…') void vscode.commands.executeCommand('pepe.agent.edit', { agent });
  });
}

/** The chat panel the person is looking at, else the last one opened. */
function focusedPanel(ctx: CommandContext) {
  return ctx.chat.panels.find((p) => p.panel.active) ?? ctx.chat.panels.at(-1);
}

/** New Chat Session: a new panel and session for the focused chat's agent (else the active agent). */
export async function chatNewSession(ctx: CommandContext): Promise<unknown> {
  const agent = focusedPanel(ctx)?.target.agent ?? undefined;
  return chatOpen(ctx, { ...(agent ? { agent } : {}), newSession: true });
}

/** Stop: cancels the focused chat's running turn (the Stop button). */
export async function chatStop(ctx: CommandContext): Promise<unknown> {
  const panel = ctx.chat.panels.find((p) => p.panel.active && p.busy) ?? ctx.chat.panels.find((p) => p.busy);
  const stopped = panel?.stop() ?? false;
  if (!stopped) vscode.window.setStatusBarMessage('Pepe: no turn is running', 3000);
  return { stopped, agent: panel?.target.agent ?? null };
}
