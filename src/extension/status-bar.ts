import * as vscode from 'vscode';
import type { ActiveAgent } from './active-agent.js';
import type { PepeHost } from './host/pepe-host.js';
import { agentModelProblem } from './models/usable.js';
import { projectFor } from './project.js';

/**
 * Status bar (spec 9.2): the active agent and the project's spend tier (spec 4.6). Shows a
 * placeholder until something built Pepe, so the status bar never makes activation heavy.
 */
export class PepeStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('pepe.status', vscode.StatusBarAlignment.Left, 50);

  constructor(private readonly host: PepeHost, private readonly active: ActiveAgent) {
    this.item.name = 'Pepe';
    this.item.command = 'pepe.agent.switch';
    this.item.text = '$(hubot) Pepe';
    this.item.tooltip = 'Pepe: switch the active agent';
    this.item.show();
  }

  async update(): Promise<void> {
    if (!this.host.isBuilt) return;
    const pepe = await this.host.get();
    const agent = this.active.resolve(pepe.config);
    const project = projectFor(pepe.config, agent);
    const usage = project && pepe.config.projects?.[project] ? pepe.projectUsage(project) : undefined;
    const tier = usage?.tier ?? 'normal';
    const unusable = agent ? agentModelProblem(pepe.config, agent, pepe.env) : undefined;
    const warn = tier === 'critical' || tier === 'dead' || unusable !== undefined;
    this.item.text = `${unusable ? '$(warning)' : '$(hubot)'} ${agent ?? 'no agent'}${project ? ` · ${project}: ${tier}` : ''}`;
    this.item.backgroundColor = warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.tooltip = new vscode.MarkdownString(
      [
        `**Pepe** — active agent: ${agent ?? 'none (add one with Pepe: Add Agent…)'}`,
        ...(unusable ? [`$(warning) ${agent} has ${unusable}: fix it with **Pepe: Edit Agent…**, **Add Model…** or **Set API Key…**`] : []),
        project ? `project **${project}**: tier \`${tier}\`${usage ? `, spend $${usage.spendUsd.toFixed(2)}${usage.capUsd !== null ? ` of $${usage.capUsd}` : ''}` : ''}` : 'no project',
        'Click to switch agent.',
      ].join('\n\n'),
      true, // $(warning)
    );
  }

  dispose(): void {
    this.item.dispose();
  }
}
