import * as vscode from 'vscode';

/** The command VS Code offers for trusting a folder ("Workspaces: Manage Workspace Trust"). */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

/**
 * Whether the window's workspace is trusted: the core is built with it, so in Restricted Mode no
 * tool that runs code or writes runs at all (granting trust rebuilds the core). Tests run VS Code
 * with Workspace Trust switched off, so outside production mode `simulate` stands in for the
 * person's choice.
 */
export class WorkspaceTrust {
  private simulated: boolean | undefined;

  get trusted(): boolean {
    return this.simulated ?? vscode.workspace.isTrusted;
  }

  /** Tests only: pretend the workspace is (un)trusted; undefined goes back to VS Code's answer. */
  simulate(trusted: boolean | undefined): void {
    this.simulated = trusted;
  }
}

/** Tells the person why nothing ran and offers the way to trust the folder. */
export async function offerToTrust(tool: string): Promise<void> {
  const manage = 'Manage Workspace Trust';
  const choice = await vscode.window.showWarningMessage(
    `Pepe did not run ${tool}: this folder is in Restricted Mode, where agents can read and search but do not run commands or write files. Trust the folder if you trust its contents.`,
    manage,
  );
  if (choice === manage) await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
}
