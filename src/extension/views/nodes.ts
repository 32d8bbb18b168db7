import * as vscode from 'vscode';
import type { SlotStatus } from '../../core/slots/slot-service.js';

/**
 * What the trees hold. Commands receive these when run from a tree (inline or context menu), so
 * each carries exactly the fields the command's argument schema reads (slot/agent/project, from/to).
 */
/** A top-level slot (no agent/project) or one override; `overrides` counts a top-level slot's children. */
export type SlotNode = { kind: 'slot'; slot: string; status: SlotStatus; agent?: string; project?: string; overrides?: number; children?: SlotNode[] };
export type RouteAgentNode = { kind: 'routeAgent'; agent: string; from: string; canSend: boolean; targets: string[] };
export type RouteNode = { kind: 'route'; from: string; to: string; usable: boolean; targetExists: boolean };
/** `problem`: why the agent cannot answer (no model, a missing key…); absent when it can. */
export type AgentNode = { kind: 'agent'; agent: string; model: string | null; project: string | null; active: boolean; problem?: string; source?: string; status?: string };
/** `at`: where in config.json the problem is, when known (the row opens the file there). */
export type ProblemNode = { kind: 'problem'; message: string; at?: { line: number; column: number } };

export function problemItem(node: ProblemNode): vscode.TreeItem {
  const item = new vscode.TreeItem('config.json has a problem', vscode.TreeItemCollapsibleState.None);
  item.description = node.message;
  item.tooltip = `${node.message}\n\nClick to open config.json. Fix the file; Pepe re-reads it when it changes and never overwrites a broken file.`;
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
  item.contextValue = 'problem';
  item.command = { command: 'pepe.config.open', title: 'Open config.json', arguments: node.at ? [{ line: node.at.line, column: node.at.column }] : [] };
  return item;
}

/** A tree provider that re-renders whenever the host says config.json or the plugins changed. */
export abstract class PepeTree<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  protected readonly changed = new vscode.EventEmitter<T | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  abstract getTreeItem(node: T): vscode.TreeItem;
  abstract getChildren(node?: T): Promise<T[]>;

  dispose(): void {
    this.changed.dispose();
  }
}
