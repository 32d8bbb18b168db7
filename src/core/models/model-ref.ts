import { z } from 'zod';

/** A model as the model_select slot names it (spec 3.2): the configured id, with what a plugin may add. */
export const ModelRef = z.looseObject({
  id: z.string().min(1),
  provider: z.string().optional(),
  model: z.string().optional(),
  context_window: z.number().int().positive().optional(),
});
export type ModelRef = z.output<typeof ModelRef>;
