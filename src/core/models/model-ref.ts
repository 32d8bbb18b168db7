import * as z from '../zod.js';

/** A model as the model_select slot names it (spec 3.2): the configured id, with what a plugin may add. */
export const ModelRef = z.looseObject({
  id: z.string().check(z.minLength(1)),
  provider: z.optional(z.string()),
  model: z.optional(z.string()),
  context_window: z.optional(z.number().check(z.int(), z.positive())),
});
export type ModelRef = z.output<typeof ModelRef>;
