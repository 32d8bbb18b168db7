import * as vscode from 'vscode';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { problemPosition } from '../host/config-problem.js';
import type { CoreBundle } from '../core-loader.js';
import type { CommandContext } from './command-context.js';

/** Every command id whose handler lives in handlers.ts (kept here so registering stays light). */
export const LAZY_COMMANDS = [
  'pepe.slot.set',
  'pepe.slot.clear',
  'pepe.slot.list',
  'pepe.slot.test',
  'pepe.doctor',
  'pepe.route.add',
  'pepe.route.remove',
  'pepe.agent.add',
  'pepe.agent.remove',
  'pepe.agent.switch',
  'pepe.agent.edit',
  'pepe.chat.open',
  'pepe.chat.newSession',
  'pepe.chat.stop',
  'pepe.chat.addSelection',
  'pepe.chat.addTerminalSelection',
  'pepe.model.add',
  'pepe.model.test',
  'pepe.config.open',
  'pepe.plugin.install',
  'pepe.apiKey.set',
  'pepe.core.check',
  'pepe.core.attach',
  'pepe.approvals.show',
  'pepe.edit.accept',
  'pepe.edit.reject',
  'pepe.checkpoints.restore',
  'pepe.checkpoints.compare',
] as const;

/**
 * Registers the commands. A person running one (palette, tree, no arguments) gets errors as a
 * notification; a caller passing arguments (keybinding, another extension, a test) gets them
 * thrown as well. Cancelling a picker is not an error: the command returns undefined.
 */
export function registerCommands(ctx: CommandContext, load: () => CoreBundle): vscode.Disposable[] {
  return LAZY_COMMANDS.map((id) =>
    vscode.commands.registerCommand(id, async (arg?: unknown) => {
      const { HANDLERS, Cancelled } = load();
      try {
        return await HANDLERS[id]!(ctx, arg);
      } catch (e) {
        if (e instanceof Cancelled) return undefined;
        const message = errorMessage(e);
        ctx.log.error(`${id}: ${message}`);
        const fromPerson = arg === undefined || (typeof arg === 'object' && arg !== null && 'kind' in arg);
        void showError(ctx, e, message);
        if (fromPerson) return undefined;
        throw e;
      }
    }),
  );
}

/** A failure as a notification; one about config.json carries "Open config.json" (at the problem). */
async function showError(ctx: CommandContext, e: unknown, message: string): Promise<void> {
  const aboutConfig = e instanceof ConfigError || /\bconfig\.json\b/.test(message);
  if (!aboutConfig) return void vscode.window.showErrorMessage(`Pepe: ${message}`);
  const open = 'Open config.json';
  const choice = await vscode.window.showErrorMessage(`Pepe: ${message}`, open);
  if (choice !== open) return;
  const at = ctx.host.configProblem ? ctx.host.configProblemAt : problemPosition(message, undefined);
  await vscode.commands.executeCommand('pepe.config.open', at ? { line: at.line, column: at.column } : undefined);
}
