import * as vscode from 'vscode';
import type { SlotStatus } from '../../core/slots/slot-service.js';
import type { PepeHost } from '../host/pepe-host.js';
import { PepeTree, problemItem, type ProblemNode, type SlotNode } from './nodes.js';

type Node = SlotNode | ProblemNode;

/**
 * The Slots tree (spec 9.2): each slot with the occupant in use, its default and its status
 * ("using the default instead" with the reason; fallback count and last reason). Children are the
 * project and agent overrides of that slot, each resolved for its own scope.
 */
export class SlotsTree extends PepeTree<Node> {
  constructor(private readonly host: PepeHost) {
    super();
  }

  async getChildren(node?: Node): Promise<Node[]> {
    const pepe = await this.host.get();
    if (!node) {
      const config = pepe.config;
      const overrides = (slot: string) =>
        Object.values(config.projects ?? {}).filter((p) => p.default_slots?.[slot as keyof typeof p.default_slots]).length +
        Object.values(config.agents ?? {}).filter((a) => a.slots?.[slot as keyof typeof a.slots]).length;
      const top: Node[] = (await pepe.slotList()).map((status) => ({ kind: 'slot', slot: status.slot, status, overrides: overrides(status.slot) }));
      return this.host.configProblem ? [{ kind: 'problem', message: this.host.configProblem }, ...top] : top;
    }
    if (node.kind !== 'slot' || node.agent || node.project) return [];
    const config = pepe.config;
    const out: Node[] = [];
    for (const [project, p] of Object.entries(config.projects ?? {})) {
      if (!p.default_slots?.[node.slot as keyof typeof p.default_slots]) continue;
      const status = (await pepe.slotList({ project })).find((s) => s.slot === node.slot);
      if (status) out.push({ kind: 'slot', slot: node.slot, status, project });
    }
    for (const [agent, a] of Object.entries(config.agents ?? {})) {
      if (!a.slots?.[node.slot as keyof typeof a.slots]) continue;
      const status = (await pepe.slotList({ agent })).find((s) => s.slot === node.slot);
      if (status) out.push({ kind: 'slot', slot: node.slot, status, agent });
    }
    return out;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'problem') return problemItem(node);
    const { status } = node;
    const scope = node.agent ? `agent ${node.agent}` : node.project ? `project ${node.project}` : undefined;
    const hasChildren = !scope && (node.overrides ?? 0) > 0;
    const item = new vscode.TreeItem(scope ?? node.slot, hasChildren ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = `slot:${node.slot}:${node.agent ?? ''}:${node.project ?? ''}`;
    item.description = describe(status);
    item.tooltip = tooltip(node.slot, status, scope);
    item.iconPath = icon(status, !!scope);
    item.contextValue = `slot${scope ? '.override' : ''}${status.configured && (scope ? status.scope === (node.agent ? 'agent' : 'project') : status.scope === 'install') ? '.configured' : ''}`;
    item.accessibilityInformation = { label: `${scope ? `${node.slot} for ${scope}` : node.slot}: ${item.description}` };
    return item;
  }
}

function describe(s: SlotStatus): string {
  const parts: string[] = [];
  if (s.status === 'default-instead') parts.push(`using the default instead (${s.configured} unavailable)`);
  else if (s.status === 'unconfined') parts.push(`${s.occupant} · unconfined`);
  else parts.push(s.occupant);
  if (s.fallbacks.count) parts.push(`${s.fallbacks.count} fallback${s.fallbacks.count === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

function tooltip(slot: string, s: SlotStatus, scope: string | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${slot}**${scope ? ` for ${scope}` : ''}\n\n`);
  md.appendMarkdown(`- in use: \`${s.occupant}\`\n- default: \`${s.default}\`\n`);
  if (s.configured) md.appendMarkdown(`- configured: \`${s.configured}\` (${s.scope} level)\n`);
  if (s.status === 'default-instead') md.appendMarkdown(`\n$(warning) Using the default instead: ${escape(s.reason ?? '')}\n`);
  if (s.status === 'unconfined') md.appendMarkdown(`\n$(warning) Unconfined: every command is asked first. ${escape(s.reason ?? '')}\n`);
  if (s.fallbacks.count) md.appendMarkdown(`\n${s.fallbacks.count} fallback(s); last: ${escape(s.fallbacks.lastReason ?? '')} (${s.fallbacks.lastAt ?? ''})\n`);
  return md;
}

function icon(s: SlotStatus, override: boolean): vscode.ThemeIcon {
  if (s.status === 'default-instead' || s.status === 'unconfined') return new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
  if (s.fallbacks.count) return new vscode.ThemeIcon('debug-alt', new vscode.ThemeColor('problemsWarningIcon.foreground'));
  if (override) return new vscode.ThemeIcon('symbol-field');
  return new vscode.ThemeIcon(s.configured ? 'plug' : 'symbol-constant');
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
