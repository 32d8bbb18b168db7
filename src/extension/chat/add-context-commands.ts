import * as vscode from 'vscode';
import type { CommandContext } from '../commands/command-context.js';
import { selectionContext, terminalContext } from '../editing/editor-context.js';
import { Cancelled } from '../commands/ui.js';

/**
 * "Add Selection to Pepe Chat" (issue 17), in the editor's and the terminal's context menus: the
 * selection is gathered while its editor or terminal still has focus, then shown as a chip in the
 * chat (the panel last used, opened when there is none) and sent with the next message.
 */
export async function chatAddSelection(ctx: CommandContext): Promise<unknown> {
  const pepe = await ctx.host.get();
  const attachment = selectionContext(pepe);
  if (!attachment) {
    void vscode.window.showInformationMessage('Pepe: select some text in an editor first.');
    throw new Cancelled();
  }
  const panel = await ctx.chat.open();
  await panel.attach(attachment);
  return { kind: attachment.kind, label: attachment.label };
}

export async function chatAddTerminalSelection(ctx: CommandContext): Promise<unknown> {
  const attachment = await terminalContext();
  if (!attachment) {
    void vscode.window.showInformationMessage('Pepe: select some output in the terminal first.');
    throw new Cancelled();
  }
  const panel = await ctx.chat.open();
  await panel.attach(attachment);
  return { kind: attachment.kind, label: attachment.label };
}
