import * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';
import { modelProblem } from '../models/usable.js';
import type { CommandContext } from './command-context.js';
import { modelAdd } from './model-commands.js';
import type { InputFlow } from './input-flow.js';
import { pick } from './ui.js';

type Choice = vscode.QuickPickItem & { id?: string; action?: 'add' | 'default' };

/**
 * The model choices Add Agent and Edit Agent offer: "+ Add a model…" first (opens the model setup
 * form and returns what it saved), the default model only when one is set (an unset one would leave the
 * agent without a model), the configured models with what keeps one from answering, the mock, and
 * the VS Code language models installed now. Returns undefined for "the default chain".
 */
export async function pickModelFor(ctx: CommandContext, pepe: Pepe, title: string, flow?: InputFlow): Promise<string | undefined> {
  const config = pepe.config;
  const items: Choice[] = [{ label: '$(add) Add a model…', description: 'OpenAI, Anthropic, a local server or a VS Code model', action: 'add', alwaysShow: true }];
  const chain = config.default_model_chain ?? [];
  if (chain.length) items.push({ label: 'Default model', description: `${chain.join(' → ')} (used by agents without a model of their own)`, action: 'default' });
  for (const id of Object.keys(config.models ?? {})) {
    const problem = modelProblem(config, id, pepe.env);
    const m = config.models![id]!;
    items.push({ label: id, description: `${m.provider} · ${m.model}`, detail: problem ? `$(warning) ${problem}` : undefined, id });
  }
  if (!config.models?.mock) items.push({ label: 'mock', description: 'the built-in fake model: replies "You said: …" (free, offline)', id: 'mock' });
  try {
    const seen = new Set<string>();
    for (const m of await vscode.lm.selectChatModels()) {
      const id = `vscode:${m.vendor}/${m.family}`;
      if (seen.has(id)) continue;
      seen.add(id);
      items.push({ label: id, description: `${m.name} (VS Code language model)`, id });
    }
  } catch {
    // no Language Model API provider: nothing to add
  }
  const placeholder = 'the model this agent uses';
  const picked = flow ? await flow.pick(items, { title, placeholder, matchOnDescription: false }) : await pick(items, { title, placeHolder: placeholder, matchOnDescription: false });
  if (picked.action === 'add') {
    // The form takes over: the quick input closes first, so nothing typed lands in it.
    flow?.hide();
    return (await modelAdd(ctx, undefined, { fromAddAgent: true })).id;
  }
  return picked.id;
}
