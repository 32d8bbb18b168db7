import * as z from '../zod.js';
import { PepeConfig } from './schema.js';

type AnySchema = z.core.$ZodType;

function unwrap(schema: AnySchema): AnySchema {
  let s = schema;
  while (s instanceof z.core.$ZodOptional || s instanceof z.core.$ZodNullable || s instanceof z.core.$ZodDefault) s = s._zod.def.innerType;
  return s;
}

/** Dotted paths of keys the schema does not define; they are kept on write and reported (spec 2). */
export function unknownKeys(raw: unknown, schema: AnySchema = PepeConfig, prefix = ''): string[] {
  const s = unwrap(schema);
  const out: string[] = [];
  if (s instanceof z.core.$ZodObject && raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const shape: Record<string, AnySchema> = s._zod.def.shape;
    for (const [key, value] of Object.entries(raw)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const child = shape[key];
      if (!child) out.push(path);
      else out.push(...unknownKeys(value, child, path));
    }
  } else if (s instanceof z.core.$ZodRecord && raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) {
      out.push(...unknownKeys(value, s._zod.def.valueType, prefix ? `${prefix}.${key}` : key));
    }
  }
  return out;
}
