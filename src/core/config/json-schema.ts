import * as z from '../zod.js';
import { PepeConfig } from './schema.js';

/** The JSON Schema shipped for editors (`contributes.jsonValidation`), generated from the zod schema. */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(PepeConfig, { target: 'draft-7', io: 'input' }),
    title: 'Pepe configuration ($PEPE_HOME/config.json)',
  };
}
