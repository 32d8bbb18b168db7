import * as vscode from 'vscode';
import type { PepeConfig } from '../core/config/schema.js';

const KEY = 'pepe.activeAgent';

/**
 * The agent this window talks to (status bar, Open Chat without an argument): the one picked with
 * Switch Agent (remembered per workspace), else the `pepe.defaultAgent` setting, else the first
 * agent in config.json.
 */
export class ActiveAgent implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  resolve(config: PepeConfig): string | undefined {
    const agents = Object.keys(config.agents ?? {});
    const picked = this.state.get<string>(KEY);
    if (picked && agents.includes(picked)) return picked;
    const configured = vscode.workspace.getConfiguration('pepe').get<string>('defaultAgent');
    if (configured && agents.includes(configured)) return configured;
    return agents[0];
  }

  async set(agent: string): Promise<void> {
    await this.state.update(KEY, agent);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
