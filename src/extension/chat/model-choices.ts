import * as vscode from 'vscode';
import type { PepeConfig } from '../../core/config/schema.js';
import type { ModelChoice } from '../../protocol/messages.js';

/**
 * The model picker's choices (spec 9.2): the agent's chain (model_select decides, the default),
 * the models configured in config.json, and every `vscode.lm` chat model as `vscode:<vendor>/<family>`
 * (the id the core's LanguageModelProvider understands). An explicit pick bypasses model_select.
 */
export async function modelChoices(config: PepeConfig, agent: string | null): Promise<ModelChoice[]> {
  const a = agent ? config.agents?.[agent] : undefined;
  const chain = a?.model_chain ?? (a?.model ? [a.model] : config.default_model_chain ?? []);
  const out: ModelChoice[] = [{ id: null, label: chain.length ? `Default (${chain.join(' → ')})` : 'Default (model_select)', group: 'default' }];
  const seen = new Set<string>();
  const add = (id: string, label: string, group: ModelChoice['group']) => {
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ id, label, group });
  };
  for (const id of [...chain, ...Object.keys(config.models ?? {})]) add(id, id, 'configured');
  for (const m of await lmModels()) add(`vscode:${m.vendor}/${m.family}`, `${m.name} (vscode:${m.vendor}/${m.family})`, 'vscode');
  return out;
}

async function lmModels(): Promise<vscode.LanguageModelChat[]> {
  try {
    // Bounded: a provider extension that never answers must not hold up the panel.
    const timeout = new Promise<vscode.LanguageModelChat[]>((resolve) => setTimeout(() => resolve([]), 2000));
    return await Promise.race([Promise.resolve(vscode.lm.selectChatModels()), timeout]);
  } catch {
    return [];
  }
}
