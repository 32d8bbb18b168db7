import { isMap, isScalar, isSeq, type Node as YamlNode, type Pair } from 'yaml';
import * as z from '../zod.js';
import { lazySchema } from '../lazy-schema.js';
import { capabilityProblem } from './capabilities.js';
import { parseYamlFile, type Problem } from './problems.js';

export const HISTORY_POLICIES = ['persist', 'model_hidden', 'transient'] as const;
export type HistoryPolicy = (typeof HISTORY_POLICIES)[number];
export const FAILURE_POLICIES = ['soft', 'hard'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];
/**
 * Where the context a slot adds goes in the prompt: just before this turn's user message (the
 * default), just after it, or at the end of the leading system block.
 */
export const PLACEMENTS = ['pre_current_user', 'post_current_user', 'system_prompt'] as const;
export type Placement = (typeof PLACEMENTS)[number];

/** The eight fields `slot.yaml` accepts (spec 7); nothing else. */
export const MANIFEST_FIELDS = [
  'entrypoint',
  'description',
  'input_schema',
  'capabilities',
  'timeout_seconds',
  'failure_policy',
  'default_placement',
  'history_policy',
] as const;

/** What `entrypoint` is when slot.yaml leaves it out (as upstream). */
export const DEFAULT_ENTRYPOINT = 'module:process';

/** `stem:export`: a module file stem in the slot folder (or a core-root-relative path) and an export name. */
export const ENTRYPOINT_PATTERN = /^([^:\s]+):([A-Za-z_$][A-Za-z0-9_$]*)$/;

export const SlotManifest = lazySchema(() =>
  z.strictObject({
    entrypoint: z._default(z.string().check(z.regex(ENTRYPOINT_PATTERN)), DEFAULT_ENTRYPOINT),
    description: z._default(z.string(), ''),
    input_schema: z._default(z.record(z.string(), z.unknown()), {}),
    capabilities: z._default(z.array(z.string()), []),
    timeout_seconds: z._default(z.nullable(z.number().check(z.positive(), z.lte(86_400))), null),
    failure_policy: z._default(z.enum(FAILURE_POLICIES), 'soft'),
    default_placement: z._default(z.enum(PLACEMENTS), 'pre_current_user'),
    history_policy: z._default(z.enum(HISTORY_POLICIES), 'persist'),
  }),
);
export type SlotManifest = z.infer<typeof SlotManifest>;

const FIELD_SCHEMAS: Record<(typeof MANIFEST_FIELDS)[number], { schema: z.ZodMiniType; expect: string }> = {
  entrypoint: { schema: lazySchema(() => z.string().check(z.regex(ENTRYPOINT_PATTERN))), expect: 'a "stem:export" string such as module:process' },
  description: { schema: lazySchema(() => z.string()), expect: 'a string' },
  input_schema: { schema: lazySchema(() => z.record(z.string(), z.unknown())), expect: 'a mapping (a JSON schema; {} for none)' },
  capabilities: { schema: lazySchema(() => z.array(z.string())), expect: 'a list of capability names' },
  timeout_seconds: { schema: lazySchema(() => z.nullable(z.number().check(z.positive(), z.lte(86_400)))), expect: 'null or a number of seconds greater than 0 (at most 86400)' },
  failure_policy: { schema: lazySchema(() => z.enum(FAILURE_POLICIES)), expect: `one of ${FAILURE_POLICIES.join(', ')}` },
  default_placement: { schema: lazySchema(() => z.enum(PLACEMENTS)), expect: `one of ${PLACEMENTS.join(', ')}` },
  history_policy: { schema: lazySchema(() => z.enum(HISTORY_POLICIES)), expect: `one of ${HISTORY_POLICIES.join(', ')}` },
};

export interface ParsedManifest {
  manifest: SlotManifest | null;
  problems: Problem[];
  /** Where the entrypoint value is, for problems found later (a missing export). */
  entrypointAt: (message: string) => Problem;
}

/** Validates one `slot.yaml`, reporting every problem with its line and column. */
export function parseManifest(file: string, text: string): ParsedManifest {
  const y = parseYamlFile(file, text);
  const problems: Problem[] = [...y.syntax];
  let entrypointNode: YamlNode | null = null;
  const entrypointAt = (message: string) => y.at(entrypointNode, message);
  const contents = y.doc.contents;
  if (problems.length) return { manifest: null, problems, entrypointAt };
  if (!isMap(contents)) {
    // An empty slot.yaml is a slot with every default (entrypoint module:process).
    if (contents == null || (isScalar(contents) && contents.value == null)) {
      return { manifest: SlotManifest.parse({}), problems, entrypointAt };
    }
    problems.push(y.at(contents, 'slot.yaml must be a mapping of its fields (for example "entrypoint: module:process")'));
    return { manifest: null, problems, entrypointAt };
  }
  const raw: Record<string, unknown> = {};
  for (const pair of contents.items as Pair<YamlNode, YamlNode>[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : null;
    if (key === null || !(MANIFEST_FIELDS as readonly string[]).includes(key)) {
      problems.push(y.at(pair.key, `unknown field "${key ?? '?'}" in slot.yaml; the fields are: ${MANIFEST_FIELDS.join(', ')}`));
      continue;
    }
    const field = key as (typeof MANIFEST_FIELDS)[number];
    if (field === 'entrypoint') entrypointNode = pair.value ?? pair.key;
    const value = pair.value ? pair.value.toJSON() : null;
    const check = FIELD_SCHEMAS[field].schema.safeParse(value);
    if (!check.success) {
      problems.push(y.at(pair.value ?? pair.key, `${field}: expected ${FIELD_SCHEMAS[field].expect}, got ${JSON.stringify(value)}`));
      continue;
    }
    if (field === 'capabilities' && isSeq(pair.value)) {
      for (const item of pair.value.items) {
        const why = capabilityProblem(String(isScalar(item) ? item.value : ''));
        if (why) problems.push(y.at(item as YamlNode, why));
      }
    }
    raw[field] = value;
  }
  if (problems.length) return { manifest: null, problems, entrypointAt };
  const parsed = SlotManifest.safeParse(raw);
  if (!parsed.success) {
    problems.push(y.at(contents, `slot.yaml: ${parsed.error.issues[0]?.message ?? 'invalid'}`));
    return { manifest: null, problems, entrypointAt };
  }
  return { manifest: parsed.data, problems, entrypointAt };
}

export function splitEntrypoint(entrypoint: string): { stem: string; exportName: string } {
  const m = ENTRYPOINT_PATTERN.exec(entrypoint);
  if (!m) throw new Error(`invalid entrypoint "${entrypoint}"`);
  return { stem: m[1]!, exportName: m[2]! };
}
