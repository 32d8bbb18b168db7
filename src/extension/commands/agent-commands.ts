import * as vscode from 'vscode';
import { NAME_PATTERN, type AgentConfig } from '../../core/config/schema.js';
import { agentModelProblem } from '../models/usable.js';
import { AgentAddArgs, AgentArgs, AgentRemoveArgs, parseArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { pickModelFor } from './model-picker.js';
import { withFlow } from './input-flow.js';
import { Cancelled, pickAgent } from './ui.js';
import { PERMISSION_PRESETS, withPreset } from '../../core/permissions/presets.js';
import { pickPreset } from './preset-pick.js';

export async function agentAdd(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(AgentAddArgs, 'pepe.agent.add', raw);
  const interactive = raw === undefined || raw === null || args.name === undefined;
  const pepe = await ctx.host.get();
  const existing = new Set(Object.keys(pepe.config.agents ?? {}));
  // One quick input for the whole flow: the keyboard stays in it from the name to the permissions.
  const asked = (args.name === undefined ? 1 : 0) + (args.model === undefined ? 1 : 0) + (!args.preset && interactive ? 1 : 0);
  const { name, model, preset } = await withFlow('Pepe: Add Agent', asked > 1 ? asked : undefined, async (flow) => {
    const name =
      args.name ??
      (await flow.text({
        prompt: "The agent's name",
        placeholder: 'a name for the agent, e.g. coder',
        validate: (v) => (!NAME_PATTERN.test(v) ? 'letters, digits, _ . - (up to 64)' : existing.has(v) ? `agent "${v}" already exists` : undefined),
      }));
    const model = args.model ?? (await pickModelFor(ctx, pepe, `Pepe: Add Agent ${name}: model`, flow));
    const preset = args.preset ? PERMISSION_PRESETS[args.preset] : interactive ? await pickPreset(name, undefined, flow) : null;
    return { name, model, preset };
  });
  let agent: AgentConfig = {};
  if (model) agent.model = model;
  if (args.project) agent.project = args.project;
  if (args.tools) agent.tools = args.tools;
  if (args.canMessage) agent.can_message = args.canMessage;
  if (preset) agent = withPreset(agent, preset);
  await pepe.agentAdd(name, agent);
  ctx.refresh();
  const problem = agentModelProblem(pepe.config, name, pepe.env);
  ctx.log.info(`agent ${name} added${model ? ` (model ${model})` : ''}${problem ? `; ${problem}` : ''}`);
  if (interactive) void afterAdd(name, problem);
  return { name, ...agent, ...(problem ? { problem } : {}) };
}

/** After Add Agent: offer its chat, or say what keeps it from answering. */
async function afterAdd(name: string, problem: string | undefined): Promise<void> {
  if (problem) {
    const fix = problem.includes('no API key stored for') ? 'Set API Key…' : 'Add Model…';
    const choice = await vscode.window.showWarningMessage(`Pepe: agent ${name} was added, but it has ${problem}.`, fix, 'Edit Agent…');
    if (choice === 'Set API Key…') await vscode.commands.executeCommand('pepe.apiKey.set', { name: /no API key stored for (\w+)/.exec(problem)?.[1] });
    else if (choice === 'Add Model…') await vscode.commands.executeCommand('pepe.model.add');
    else if (choice === 'Edit Agent…') await vscode.commands.executeCommand('pepe.agent.edit', { agent: name });
    return;
  }
  const choice = await vscode.window.showInformationMessage(`Pepe: agent ${name} added.`, 'Open Chat');
  if (choice === 'Open Chat') await vscode.commands.executeCommand('pepe.chat.open', { agent: name });
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

