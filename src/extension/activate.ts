import * as vscode from 'vscode';

/**
 * The extension's composition root. This first version only activates, opens Pepe's log and
 * says where PEPE_HOME is; the trees, commands, chat and modal barrier build on it.
 */
export function activate(context: vscode.ExtensionContext): { version: string } {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Pepe', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(vscode.commands.registerCommand('pepe.log.show', () => log.show()));
  const home = vscode.workspace.getConfiguration('pepe').get<string>('home') || process.env.PEPE_HOME || '~/.pepe';
  log.info(`Pepe activated in ${(performance.now() - started).toFixed(1)} ms (PEPE_HOME: ${home})`);
  return { version: String(context.extension.packageJSON.version) };
}

export function deactivate(): void {
  // Everything registered is in context.subscriptions and disposed by VS Code.
}
