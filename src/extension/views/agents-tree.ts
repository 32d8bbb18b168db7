import * as vscode from 'vscode';
import type { ActiveAgent } from '../active-agent.js';
import type { PepeHost } from '../host/pepe-host.js';
import { agentModelProblem } from '../models/usable.js';
import type { AgentFailures } from './agent-failures.js';
import { PepeTree, problemItem, type AgentNode, type ProblemNode } from './nodes.js';

type Node = AgentNode | ProblemNode;

/** The Agents tree (spec 9.2): every agent with its model and project; the active one is marked. */
export class AgentsTree extends PepeTree<Node> {
  constructor(private readonly host: PepeHost, private readonly active: ActiveAgent, private readonly failures?: AgentFailures) {
    super();
    // A turn that failed (or succeeded again) changes the agent's mark.
    if (failures) this.subs.push(failures.onDidChange(() => this.refresh()));
  }

  private readonly subs: vscode.Disposable[] = [];
  /** The model an agent without its own answers with (the first of the default chain), if any. */
  private defaultModel: string | null = null;

  override dispose(): void {
    for (const s of this.subs.splice(0)) s.dispose();
    super.dispose();
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (node) return [];
    const pepe = await this.host.get();
    // The welcome view (shown while there is no agent) says the next step: a model, then an agent.
    void vscode.commands.executeCommand('setContext', 'pepe.hasModel', Object.keys(pepe.config.models ?? {}).length > 0);
    const current = this.active.resolve(pepe.config);
    this.defaultModel = pepe.config.default_model_chain?.[0] ?? null;
    const agents: Node[] = pepe.agentList().map((a) => {
      const problem = a.status === 'loaded' ? agentModelProblem(pepe.config, a.name, pepe.env) : null;
      const from = a.source === 'config.json' ? {} : { source: a.source, status: a.status };
      return { kind: 'agent', agent: a.name, model: a.model, project: a.project, active: a.name === current, ...(problem ? { problem } : {}), ...from };
    });
    return this.host.configProblem ? [this.host.problemNode(), ...agents] : agents;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'problem') return problemItem(node);
    const item = new vscode.TreeItem(node.agent, vscode.TreeItemCollapsibleState.None);
    item.id = `agent:${node.agent}`;
    // In plain words (issue 26): an agent without a model of its own uses the default one.
    const model = node.model ?? (this.defaultModel ? `default model (${this.defaultModel})` : 'default model');
    item.description = [model, node.project ? `project ${node.project}` : null, node.active ? 'active' : null].filter(Boolean).join(' · ');
    item.iconPath = node.problem
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
      : new vscode.ThemeIcon(node.active ? 'pass-filled' : 'hubot');
    if (node.problem) item.description = `${item.description} · ${node.problem}`;
    item.contextValue = 'agent';
    const failed = this.failures?.reason(node.agent);
    if (failed && !node.problem) {
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
      item.description = `${item.description} · last call failed`;
    }
    if (node.source) {
      // An agent file: where it comes from, and whether it applies (a workspace's waits for acceptance).
      const words: Record<string, string> = { awaiting: 'awaiting acceptance', changed: 'changed: awaiting acceptance', invalid: 'has problems', shadowed: 'name taken: not used' };
      const status = node.status && node.status !== 'loaded' ? words[node.status] ?? node.status : null;
      item.description = [status ?? item.description, node.source].filter(Boolean).join(' · ');
      if (status) {
        item.iconPath = new vscode.ThemeIcon(node.status === 'invalid' ? 'warning' : 'shield');
        item.contextValue = 'agentFile';
        if (node.status === 'awaiting' || node.status === 'changed') item.command = { command: 'pepe.trust.review', title: 'Review Workspace Items…' };
      }
      item.id = `agent:${node.agent}:${node.source}`;
    }
    item.tooltip = `${node.agent}\nmodel: ${node.model ?? `the default model${this.defaultModel ? `, ${this.defaultModel}` : ''} (no model of its own)`}\nproject: ${node.project ?? 'none'}${node.problem ? `\n\n${node.problem}: fix it with Edit Agent…, Add Model… or Set API Key…` : ''}${failed ? `\n\nLast call failed: ${failed}` : ''}`;
    item.accessibilityInformation = { label: `${node.agent}: ${item.description}${failed && !node.problem ? `: ${failed}` : ''}` };
    return item;
  }
}
