import * as vscode from 'vscode';
import { NAME_PATTERN, type AgentConfig } from '../../core/config/schema.js';
import { AgentAddArgs, AgentArgs, AgentRemoveArgs, parseArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { Cancelled, input, pick, pickAgent } from './ui.js';

export async function agentAdd(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(AgentAddArgs, 'pepe.agent.add', raw);
  const pepe = await ctx.host.get();
  const existing = new Set(Object.keys(pepe.config.agents ?? {}));
  const name =
    args.name ??
    (await input({
      title: 'Pepe: Add Agent',
      prompt: 'Agent name',
      validateInput: (v) => (!NAME_PATTERN.test(v) ? 'letters, digits, _ . - (up to 64)' : existing.has(v) ? `agent "${v}" already exists` : undefined),
    }));
  const model = args.model ?? (await pickModel(pepe.config.models ?? {}, pepe.config.default_model_chain));
  const agent: AgentConfig = {};
  if (model) agent.model = model;
  if (args.project) agent.project = args.project;
  if (args.tools) agent.tools = args.tools;
  if (args.canMessage) agent.can_message = args.canMessage;
  await pepe.agentAdd(name, agent);
  ctx.refresh();
  ctx.log.info(`agent ${name} added${model ? ` (model ${model})` : ''}`);
  return { name, ...agent };
}

/** Real choices: configured models, the mock, and the VS Code language models installed now. */
async function pickModel(models: Record<string, unknown>, defaultChain: string[] | undefined): Promise<string | undefined> {
  const items: (vscode.QuickPickItem & { id?: string })[] = [
    { label: 'Default model chain', description: defaultChain?.length ? defaultChain.join(' → ') : 'default_model_chain (unset)', id: undefined },
    ...Object.keys(models).map((id) => ({ label: id, description: 'configured in config.json', id })),
    { label: 'mock', description: 'the built-in fake model (free, offline)', id: 'mock' },
  ];
  try {
    const lm = await vscode.lm.selectChatModels();
    for (const m of lm) items.push({ label: `vscode:${m.vendor}/${m.family}`, description: `${m.name} (VS Code Language Model API)`, id: `vscode:${m.vendor}/${m.family}` });
  } catch {
    // no language model API provider: nothing to add
  }
  const picked = await pick(items, { title: 'Pepe: Add Agent: model', placeHolder: 'model' });
  return picked.id;
}

export async function agentRemove(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(AgentRemoveArgs, 'pepe.agent.remove', raw);
  const pepe = await ctx.host.get();
  const agent = args.agent ?? (await pickAgent(pepe, 'Pepe: Remove Agent'));
  if (!args.force) {
    const ok = await vscode.window.showWarningMessage(`Remove agent ${agent}?`, { modal: true, detail: 'Its entry and the routes to it are removed from config.json. Its sessions and memory files stay on disk.' }, 'Remove');
    if (ok !== 'Remove') throw new Cancelled();
  }
  const { routesRemoved } = await pepe.agentRemove(agent);
  ctx.refresh();
  ctx.log.info(`agent ${agent} removed${routesRemoved.length ? `; routes removed: ${routesRemoved.join(', ')}` : ''}`);
  return { agent, routesRemoved };
}

export async function agentSwitch(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(AgentArgs, 'pepe.agent.switch', raw);
  const pepe = await ctx.host.get();
  const agent = args.agent ?? (await pickAgent(pepe, 'Pepe: Switch Agent'));
  if (!pepe.config.agents?.[agent]) throw new Error(`unknown agent "${agent}"`);
  await ctx.active.set(agent);
  ctx.refresh();
  return { agent };
}

