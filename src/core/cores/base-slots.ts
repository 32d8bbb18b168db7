import { join } from 'node:path';
import { SlotManifest } from './manifest.js';
import type { LoadedCore, LoadedSlot } from './loaded-core.js';
import type { Phase } from './pipelines.js';
import { emptyPipeline } from './pipelines.js';
import type { InputContext, OutputContext, SlotContext } from './sdk-types.js';

export const BASE_INPUT = 'base_input';
export const BASE_OUTPUT = 'base_output';

/** Pepe's own base_input: the raw user text becomes this turn's user message. */
export function baseInput(ctx: InputContext): void {
  ctx.input.addContext(ctx.input.rawText, { role: 'user' });
}

/** Pepe's own base_output: the model's answer is delivered. */
export function baseOutput(ctx: OutputContext): void {
  ctx.output.sendText(ctx.output.responseText);
}

/** The built-in equivalent of a seed slot, for restricted mode and for child cores that lack one. */
export function builtinSlot(surfaceRoot: string, phase: 'input' | 'output'): LoadedSlot {
  const id = phase === 'input' ? BASE_INPUT : BASE_OUTPUT;
  const dir = join(surfaceRoot, phase, id);
  return {
    id,
    phase,
    dir,
    manifestFile: join(dir, 'slot.yaml'),
    manifest: SlotManifest.parse({
      entrypoint: 'module:process',
      description: phase === 'input' ? 'Appends the raw user text.' : 'Sends the model response.',
      failure_policy: 'hard',
    }),
    moduleFile: null,
    entry: (phase === 'input' ? baseInput : baseOutput) as (ctx: SlotContext) => unknown,
    builtin: true,
  };
}

/** A core that runs only the built-in base_input/base_output, saying why (spec 7, Workspace Trust). */
export function restrictedCore(dir: string, surfaceRoot: string, reason: string): LoadedCore {
  const slots: Record<Phase, Map<string, LoadedSlot>> = { bootstrap: new Map(), input: new Map(), output: new Map() };
  slots.input.set(BASE_INPUT, builtinSlot(surfaceRoot, 'input'));
  slots.output.set(BASE_OUTPUT, builtinSlot(surfaceRoot, 'output'));
  return {
    dir,
    surfaceRoot,
    pipelines: {
      schemaVersion: 1,
      bootstrap: emptyPipeline(),
      input: { serial: [BASE_INPUT], parallel: [] },
      output: { serial: [BASE_OUTPUT], parallel: [] },
    },
    slots,
    restricted: reason,
  };
}
