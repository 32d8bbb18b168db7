import * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';
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
  /** The Pepe whose log this tree listens to, and how to stop listening. */
  private watched: { pepe: Pepe; stop: () => void } | undefined;
  private fallbackTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: PepeHost, private readonly fallbackDebounceMs = SlotsTree.FALLBACK_DEBOUNCE_MS) {
    super();
  }

  /** A burst of fallbacks (a plugin failing on every call) refreshes the tree once. */
  static readonly FALLBACK_DEBOUNCE_MS = 250;

  async getChildren(node?: Node): Promise<Node[]> {
    const pepe = await this.host.get();
    this.watch(pepe);
    if (!node) {
      // One query: every slot with its overrides, each resolved for its own scope.
      const top: Node[] = (await pepe.slotOverview()).map(({ overrides, ...status }) => ({
        kind: 'slot',
        slot: status.slot,
        status,
        overrides: overrides.length,
        children: overrides.map((o) => ({ kind: 'slot' as const, slot: status.slot, status: o.status, ...(o.scope === 'agent' ? { agent: o.name } : { project: o.name }) })),
      }));
      return this.host.configProblem ? [this.host.problemNode(), ...top] : top;
    }
    if (node.kind !== 'slot' || node.agent || node.project) return [];
    return node.children ?? [];
  }

  /**
   * A fallback shows without a manual refresh: the core logs every one (`slot_fallback`), and the
   * tree re-renders shortly after, once per burst. A rebuilt Pepe (pepe.home changed) is followed.
   */
  private watch(pepe: Pepe): void {
    if (this.watched?.pepe === pepe) return;
    this.watched?.stop();
    const stop = pepe.onLogEntry((entry) => {
      if (entry.kind !== 'slot_fallback') return;
      this.fallbackTimer ??= setTimeout(() => {
        this.fallbackTimer = undefined;
        this.refresh();
      }, this.fallbackDebounceMs);
    });
    this.watched = { pepe, stop };
  }

  override dispose(): void {
    clearTimeout(this.fallbackTimer);
    this.watched?.stop();
    this.watched = undefined;
    super.dispose();
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
  if (s.fallbacks.count) parts.push(`${s.fallbacks.count} fallback${s.fallbacks.count === 1 ? '' : 's'}${s.fallbacks.recovered ? ', recovered' : ''}`);
  return parts.join(' · ');
}

function tooltip(slot: string, s: SlotStatus, scope: string | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${slot}**${scope ? ` for ${scope}` : ''}\n\n`);
  md.appendMarkdown(`- in use: \`${s.occupant}\`\n- default: \`${s.default}\`\n`);
  if (s.configured) md.appendMarkdown(`- configured: \`${s.configured}\` (${s.scope} level)\n`);
  if (s.status === 'default-instead') md.appendMarkdown(`\n$(warning) Using the default instead: ${escape(s.reason ?? '')}\n`);
  if (s.status === 'unconfined') md.appendMarkdown(`\n$(warning) Unconfined: every command is asked first. ${escape(s.reason ?? '')}\n`);
  if (s.uses) md.appendMarkdown(`- built-in: ${escape(s.uses)}\n`);
  if (s.fallbacks.count) md.appendMarkdown(`\n${s.fallbacks.count} fallback(s); last: ${escape(s.fallbacks.lastReason ?? '')} (${s.fallbacks.lastAt ?? ''})${s.fallbacks.recovered ? `; recovered at ${s.fallbacks.recoveredAt ?? ''}` : ''}\n`);
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
