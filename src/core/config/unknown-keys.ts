import { z } from 'zod';
import { PepeConfig } from './schema.js';

type AnySchema = z.core.$ZodType;

function unwrap(schema: AnySchema): AnySchema {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s.unwrap() as AnySchema;
  return s;
}

/** Dotted paths of keys the schema does not define; they are kept on write and reported (spec 2). */
export function unknownKeys(raw: unknown, schema: AnySchema = PepeConfig, prefix = ''): string[] {
  const s = unwrap(schema);
  const out: string[] = [];
  if (s instanceof z.ZodObject && raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const shape = s.shape as Record<string, AnySchema>;
    for (const [key, value] of Object.entries(raw)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const child = shape[key];
      if (!child) out.push(path);
      else out.push(...unknownKeys(value, child, path));
    }
  } else if (s instanceof z.ZodRecord && raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) {
      out.push(...unknownKeys(value, s.valueType as AnySchema, prefix ? `${prefix}.${key}` : key));
    }
  }
  return out;
}
