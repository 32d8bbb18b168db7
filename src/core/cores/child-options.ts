import * as z from '../zod.js';
import { BASE_INPUT, BASE_OUTPUT, builtinSlot } from './base-slots.js';
import type { ChildAgentRequest, PipelineSelection, SlotRef, ToolSelection } from './host.js';
import type { LoadedCore, LoadedSlot } from './loaded-core.js';
import type { PhasePipeline } from './pipelines.js';
import { lazySchema } from '../lazy-schema.js';

const SlotList = lazySchema(() => z.optional(z.union([z.literal('all'), z.array(z.string().check(z.minLength(1))), z.null()])));

/** The options of `ctx.agents.run/spawn` (spec 7); unknown keys are a mistake worth telling. */
export const AgentCallOptions = lazySchema(() =>
  z.optional(
    z.strictObject({
      inputSlots: SlotList,
      outputSlots: SlotList,
      tools: z.optional(z.union([z.literal('all'), z.literal('none'), z.array(z.string().check(z.minLength(1)))])),
      useBootstrap: z.optional(z.boolean()),
      context: z.optional(z.nullable(z.union([z.string(), z.array(z.string())]))),
    }),
  ),
);

/** omitted / null / [] → only the base slot; 'all' → everything; a list → those ids. */
export function pipelineSelection(value: 'all' | string[] | null | undefined): PipelineSelection {
  if (value === 'all') return 'all';
  if (value == null || value.length === 0) return 'base';
  return { only: [...value] };
}

/** default 'all'; 'none' or [] → none; a list narrows. */
export function toolSelection(value: 'all' | 'none' | string[] | undefined): ToolSelection {
  if (value === undefined || value === 'all') return 'all';
  if (value === 'none' || value.length === 0) return 'none';
  return { only: [...value] };
}

/** A list naming one id twice is a mistake (as upstream): said, never silently merged. */
function refuseDuplicates(option: string, value: unknown): void {
  if (!Array.isArray(value)) return;
  const seen = new Set<string>();
  for (const id of value as string[]) {
    if (seen.has(id)) throw new TypeError(`ctx.agents options: ${option}: "${id}" is named twice (name each ${option === 'tools' ? 'tool' : 'slot'} once)`);
    seen.add(id);
  }
}

/** Validates a slot's options and computes what the child's turn runs. Throws a readable error. */
export function childRequest(agent: unknown, text: unknown, options: unknown, caller: SlotRef): ChildAgentRequest {
  if (typeof agent !== 'string' || !agent) throw new TypeError('ctx.agents: the agent name must be a non-empty string');
  if (typeof text !== 'string') throw new TypeError('ctx.agents: the text must be a string');
  const parsed = AgentCallOptions.safeParse(options ?? undefined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'options';
    throw new TypeError(
      `ctx.agents options: ${where}: ${issue?.message ?? 'invalid'} (inputSlots/outputSlots: 'all', a list of slot ids or null; tools: 'all', 'none' or a list; useBootstrap: boolean; context: a string or a list of strings)`,
    );
  }
  const o = parsed.data ?? {};
  refuseDuplicates('inputSlots', o.inputSlots);
  refuseDuplicates('outputSlots', o.outputSlots);
  refuseDuplicates('tools', o.tools);
  return {
    agent,
    text,
    input: pipelineSelection(o.inputSlots),
    output: pipelineSelection(o.outputSlots),
    tools: toolSelection(o.tools),
    useBootstrap: o.useBootstrap ?? false,
    context: (typeof o.context === 'string' ? [o.context] : (o.context ?? [])).filter((t) => t.trim() !== ''),
    caller,
  };
}

export interface SelectedPipeline {
  pipeline: PhasePipeline;
  slots: Map<string, LoadedSlot>;
  /** Ids a list asked for that the core's pipeline does not have (the run refuses them). */
  missing: string[];
}

/**
 * Applies a selection to one phase of a core: 'all' is the configured pipeline; 'base' is the
 * core's base slot (Pepe's built-in when the core has none); a list keeps only those ids, in
 * pipeline order and in their serial/parallel group.
 */
export function selectPipeline(core: LoadedCore, phase: 'input' | 'output', selection: PipelineSelection): SelectedPipeline {
  const configured = core.pipelines[phase];
  const slots = core.slots[phase];
  if (selection === 'all') return { pipeline: { serial: [...configured.serial], parallel: [...configured.parallel] }, slots, missing: [] };
  if (selection === 'base') {
    const id = phase === 'input' ? BASE_INPUT : BASE_OUTPUT;
    const own = slots.get(id);
    const slot = own ?? builtinSlot(core.surfaceRoot, phase);
    return { pipeline: { serial: [id], parallel: [] }, slots: new Map([[id, slot]]), missing: [] };
  }
  const wanted = new Set(selection.only);
  const keep = (ids: string[]) => ids.filter((id) => wanted.has(id));
  const present = new Set([...configured.serial, ...configured.parallel]);
  return {
    pipeline: { serial: keep(configured.serial), parallel: keep(configured.parallel) },
    slots,
    missing: selection.only.filter((id) => !present.has(id)),
  };
}
