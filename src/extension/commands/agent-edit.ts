import * as vscode from 'vscode';
import type { AgentEdit } from '../../core/config/edits.js';
import { UsageError } from '../../core/errors.js';
import { ROUTING_TOOLS } from '../../core/routing/tools.js';
import { BUILTIN_TOOLS } from '../../core/tools/registry.js';
import { agentModelProblem } from '../models/usable.js';
import { AgentEditArgs, parseArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { pickModelFor } from './model-picker.js';
import { type InputFlow, withFlow } from './input-flow.js';
import { pickAgent } from './ui.js';
import { PERMISSION_PRESETS, type PermissionPreset } from '../../core/permissions/presets.js';
import { pickPreset, presetDescription } from './preset-pick.js';

type Edit = Pick<AgentEdit, 'modelChain' | 'tools' | 'systemPrompt'> & { preset?: PermissionPreset };

/**
 * Edit Agent…: the agent's model chain, tools and system prompt. With arguments, exactly the given
 * fields change (null: back to the default); from the palette or the tree, a picker asks which.
 * Other keys of the agent (and unknown keys) are kept as they are in config.json.
 */
export async function agentEdit(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(AgentEditArgs, 'pepe.agent.edit', raw);
  const pepe = await ctx.host.get();
  const agent = args.agent ?? (await pickAgent(pepe, 'Pepe: Edit Agent'));
  const current = pepe.config.agents?.[agent];
  if (!current) throw new UsageError(`unknown agent "${agent}"`);
  const edit: Edit = {};
  if (args.modelChain !== undefined) edit.modelChain = args.modelChain;
  if (args.tools !== undefined) edit.tools = args.tools;
  if (args.systemPrompt !== undefined) edit.systemPrompt = args.systemPrompt;
  if (args.preset !== undefined) edit.preset = PERMISSION_PRESETS[args.preset];
  const asked = !Object.keys(edit).length;
  if (asked) {
    // One quick input for the whole flow: the keyboard stays in it from step to step.
    await withFlow(`Pepe: Edit Agent ${agent}`, undefined, async (flow) => {
      const chain = current.model_chain ?? (current.model ? [current.model] : null);
      const what = await flow.pick(
        [
          { label: 'Model chain', description: chain ? chain.join(' → ') : 'the default model', value: 'model' as const },
          { label: 'Tools', description: current.tools ? current.tools.join(', ') || 'none' : 'every tool', value: 'tools' as const },
          { label: 'System prompt', description: current.system_prompt ? current.system_prompt.slice(0, 60) : 'none', value: 'prompt' as const },
          { label: 'Permissions', description: presetDescription(current), value: 'preset' as const },
        ],
        { placeholder: 'what to change' },
      );
      if (what.value === 'model') edit.modelChain = await askChain(ctx, agent, chain, flow);
      else if (what.value === 'tools') edit.tools = await askTools(agent, current.tools ?? null, flow);
      else if (what.value === 'preset') edit.preset = await pickPreset(agent, current, flow);
      else edit.systemPrompt = await askPrompt(agent, current.system_prompt ?? '', flow);
    });
  }
  const { preset, ...rest } = edit;
  await pepe.agentEdit(agent, { ...rest, ...(preset ? { permissions: { auto_approve: preset.auto_approve, plan_mode: preset.plan_mode === true } } : {}) });
  await ctx.host.reload();
  const problem = agentModelProblem(pepe.config, agent, pepe.env);
  ctx.log.info(`agent ${agent} edited (${Object.keys(edit).join(', ')})${problem ? `; ${problem}` : ''}`);
  if (problem) void vscode.window.showWarningMessage(`Pepe: agent ${agent} has ${problem}.`);
  else if (asked) vscode.window.setStatusBarMessage(`Pepe: agent ${agent} updated`, 4000);
  return { agent, ...pepe.config.agents?.[agent], ...(problem ? { problem } : {}) };
}

/** The chain one model at a time: the first pick answers, the next ones take over when it fails. */
async function askChain(ctx: CommandContext, agent: string, current: string[] | null, flow: InputFlow): Promise<string[] | null> {
  const pepe = await ctx.host.get();
  const chain: string[] = [];
  for (;;) {
    const title = chain.length ? `Pepe: ${agent}: ${chain.join(' → ')} → next model (fallback)` : `Pepe: ${agent}: first model${current ? ` (now ${current.join(' → ')})` : ''}`;
    if (chain.length) {
      const more = await flow.pick(
        [
          { label: 'Done', description: chain.join(' → '), done: true },
          { label: 'Add a fallback model…', description: 'used when the previous one fails before answering', done: false },
        ],
        { title, placeholder: 'another model after these?' },
      );
      if (more.done) return chain;
    }
    const id = await pickModelFor(ctx, pepe, title, flow);
    if (id === undefined) {
      if (!chain.length) return null; // "Default model"
      continue;
    }
    if (!chain.includes(id)) chain.push(id);
  }
}

async function askTools(agent: string, current: string[] | null, flow: InputFlow): Promise<string[] | null> {
  const all = [...BUILTIN_TOOLS, ...ROUTING_TOOLS];
  const items = all.map((t) => ({ label: t.name, description: t.description.split('. ')[0], picked: current === null || current.includes(t.name) }));
  const picked = await flow.pickMany(items, { title: `Pepe: ${agent}: tools`, placeholder: 'the tools this agent may call (risky ones still ask first)' });
  const names = picked.map((p) => p.label);
  // Every tool ticked: leave "tools" out, so tools added in later versions are included too.
  return names.length === all.length ? null : names;
}

async function askPrompt(agent: string, current: string, flow: InputFlow): Promise<string> {
  return flow.text({
    title: `Pepe: ${agent}: system prompt`,
    prompt: 'Instructions given to the model at the start of every conversation (empty: none)',
    value: current,
  });
}
