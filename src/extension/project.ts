import * as vscode from 'vscode';
import type { PepeConfig } from '../core/config/schema.js';

/**
 * The project of this window (spec 1): the agent's own `project`, else the `pepe.project` setting,
 * else the workspace folder's name when config.json has a project by that name.
 */
export function projectFor(config: PepeConfig, agent: string | undefined): string | undefined {
  const own = agent ? config.agents?.[agent]?.project : undefined;
  if (own) return own;
  const setting = vscode.workspace.getConfiguration('pepe').get<string>('project');
  if (setting) return setting;
  const folder = vscode.workspace.workspaceFolders?.[0]?.name;
  return folder && config.projects?.[folder] ? folder : undefined;
}
