import * as vscode from 'vscode';
import type { PepeHost } from '../host/pepe-host.js';
import { PepeTree, problemItem, type ProblemNode, type RouteAgentNode, type RouteNode } from './nodes.js';

type Node = RouteAgentNode | RouteNode | ProblemNode;

const DRAG_MIME = 'application/vnd.code.tree.pepe.routes';

/**
 * The Routes tree (spec 6.1, 9.2): each agent with the agents it may message. Routes are directed,
 * so a child `billing` (arrow icon) under `triage` says nothing about billing → triage. An agent without the
 * send_to_agent tool is marked: its routes exist but it cannot use them. Dragging one agent onto
 * another adds that route (dragged → target).
 */
export class RoutesTree extends PepeTree<Node> implements vscode.TreeDragAndDropController<Node> {
  readonly dragMimeTypes = [DRAG_MIME];
  readonly dropMimeTypes = [DRAG_MIME];

  constructor(private readonly host: PepeHost, private readonly addRoute: (from: string, to: string) => Promise<void>) {
    super();
  }

  async getChildren(node?: Node): Promise<Node[]> {
    const pepe = await this.host.get();
    const graph = pepe.routeGraph();
    if (!node) {
      const agents: Node[] = graph.agents.map((a) => ({
        kind: 'routeAgent',
        agent: a.name,
        from: a.name,
        canSend: a.canSend,
        targets: graph.edges.filter((e) => e.from === a.name).map((e) => e.to),
      }));
      return this.host.configProblem ? [this.host.problemNode(), ...agents] : agents;
    }
    if (node.kind !== 'routeAgent') return [];
    return graph.edges.filter((e) => e.from === node.agent).map((e) => ({ kind: 'route', from: e.from, to: e.to, usable: e.usable, targetExists: e.targetExists }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'problem') return problemItem(node);
    if (node.kind === 'routeAgent') {
      const item = new vscode.TreeItem(node.agent, node.targets.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      // The id changes when the first route appears, so VS Code shows the new children expanded
      // instead of remembering the row as a leaf.
      item.id = `route-agent:${node.agent}:${node.targets.length ? 'routes' : 'none'}`;
      const marker = node.canSend ? '' : ' · lacks send_to_agent';
      item.description = (node.targets.length ? `may message ${node.targets.length}` : 'messages no one') + marker;
      item.tooltip = node.canSend
        ? `${node.agent} may message: ${node.targets.join(', ') || 'no one'}.\nDrag it onto another agent to add a route.`
        : `${node.agent} has no send_to_agent tool, so it cannot use its routes. Add the tool to its "tools" in config.json.`;
      item.iconPath = node.canSend ? new vscode.ThemeIcon('hubot') : new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
      item.contextValue = 'routeAgent';
      item.accessibilityInformation = { label: `${node.agent}: ${item.description}` };
      return item;
    }
    // The arrow icon says "may message"; the label is the agent alone (not "→ → reviewer").
    const item = new vscode.TreeItem(node.to, vscode.TreeItemCollapsibleState.None);
    item.id = `route:${node.from}:${node.to}`;
    item.description = !node.targetExists ? 'unknown agent' : node.usable ? undefined : 'unusable';
    item.tooltip = `${node.from} → ${node.to} (directed: opens nothing from ${node.to} to ${node.from})${node.targetExists ? '' : `\n"${node.to}" is not an agent in config.json.`}`;
    item.iconPath = new vscode.ThemeIcon(node.targetExists ? 'arrow-right' : 'warning');
    item.contextValue = 'route';
    item.accessibilityInformation = { label: `route ${node.from} → ${node.to}` };
    return item;
  }

  handleDrag(source: readonly Node[], data: vscode.DataTransfer): void {
    const agents = source.filter((n): n is RouteAgentNode => n.kind === 'routeAgent').map((n) => n.agent);
    if (agents.length) data.set(DRAG_MIME, new vscode.DataTransferItem(agents));
  }

  async handleDrop(target: Node | undefined, data: vscode.DataTransfer): Promise<void> {
    if (!target || target.kind !== 'routeAgent') return;
    const from = data.get(DRAG_MIME)?.value as string[] | undefined;
    for (const agent of from ?? []) {
      if (agent !== target.agent) await this.addRoute(agent, target.agent);
    }
  }
}
