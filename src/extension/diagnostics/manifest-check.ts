import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';

/**
 * Checks agent-core manifests as a person types (spec 7): `slot.yaml` accepts exactly its known
 * fields; `pipelines.yaml` needs schema_version 1, known phases and keys, known slot ids of that
 * phase, each at most once, and a serial-only bootstrap. Parsing only: nothing here runs a
 * module, so it is safe in an untrusted workspace. Problems carry line/column ranges.
 *
 * The core's agent-core loader (issue 5) is the authority when a core runs; when it lands, this
 * file should call its manifest schemas instead of keeping its own copy of the rules.
 */

export interface ManifestProblem {
  message: string;
  /** Zero-based line/column of start and end. */
  range: { startLine: number; startCol: number; endLine: number; endCol: number };
  severity: 'error' | 'warning';
}

const SlotManifest = z.strictObject({
  entrypoint: z.string().regex(/^[A-Za-z0-9_.-]+:[A-Za-z_$][A-Za-z0-9_$]*$/, 'use "<file stem>:<export name>", e.g. "module:process"'),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  capabilities: z.array(z.string().min(1)).optional(),
  timeout_seconds: z.number().positive().nullable().optional(),
  failure_policy: z.enum(['soft', 'hard']).optional(),
  default_placement: z.string().min(1).optional(),
  history_policy: z.enum(['persist', 'model_hidden', 'transient']).optional(),
});

const ids = z.array(z.string().min(1));
const Pipelines = z.strictObject({
  schema_version: z.literal(1, 'schema_version must be 1'),
  bootstrap: z.strictObject({ serial: ids.optional() }).optional(),
  input: z.strictObject({ serial: ids.optional(), parallel: ids.optional() }).optional(),
  output: z.strictObject({ serial: ids.optional(), parallel: ids.optional() }).optional(),
});

export type ManifestKind = 'slot' | 'pipelines';

export function manifestKind(file: string): ManifestKind | undefined {
  const name = basename(file);
  if (name === 'slot.yaml') return 'slot';
  if (name === 'pipelines.yaml') return 'pipelines';
  return undefined;
}

export function checkManifest(file: string, text: string): ManifestProblem[] {
  const kind = manifestKind(file);
  if (!kind) return [];
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const at = (offsets: [number, number] | undefined, message: string, severity: ManifestProblem['severity'] = 'error'): ManifestProblem => {
    const [start, end] = offsets ?? [0, Math.max(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'))];
    const s = lines.linePos(start);
    const e = lines.linePos(Math.max(start, end));
    return { message, severity, range: { startLine: s.line - 1, startCol: s.col - 1, endLine: e.line - 1, endCol: e.col - 1 } };
  };
  if (doc.errors.length) return doc.errors.map((err) => at([err.pos[0], err.pos[1]], `YAML: ${err.message.split('\n')[0]}`));
  const value = doc.toJS() ?? {};
  const schema = kind === 'slot' ? SlotManifest : Pipelines;
  const parsed = schema.safeParse(value);
  const problems: ManifestProblem[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) problems.push(at(keyRange(doc, [...issue.path, key] as (string | number)[]), `${basename(file)}: unknown field "${[...issue.path, key].join('.')}"`));
      } else {
        const path = issue.path as (string | number)[];
        problems.push(at(valueRange(doc, path), `${basename(file)}: ${path.length ? `${path.join('.')}: ` : ''}${issue.message}`));
      }
    }
    return problems;
  }
  if (kind === 'pipelines') problems.push(...checkPipelineIds(file, parsed.data as z.infer<typeof Pipelines>, doc, at));
  return problems;
}

/** Every id must be a slot folder of that phase (`<surface>/<phase>/<id>/slot.yaml`), once per pipeline. */
function checkPipelineIds(
  file: string,
  p: z.infer<typeof Pipelines>,
  doc: Document,
  at: (o: [number, number] | undefined, m: string) => ManifestProblem,
): ManifestProblem[] {
  const root = dirname(file);
  const out: ManifestProblem[] = [];
  for (const phase of ['bootstrap', 'input', 'output'] as const) {
    const groups = p[phase] as { serial?: string[]; parallel?: string[] } | undefined;
    if (!groups) continue;
    const known = slotIds(join(root, phase));
    const seen = new Set<string>();
    for (const group of ['serial', 'parallel'] as const) {
      (groups[group] ?? []).forEach((id, i) => {
        const where = valueRange(doc, [phase, group, i]);
        if (seen.has(id)) out.push(at(where, `pipelines.yaml: "${id}" appears more than once in the ${phase} pipeline`));
        seen.add(id);
        if (known && !known.includes(id)) out.push(at(where, `pipelines.yaml: "${id}" is not a ${phase} slot (no ${phase}/${id}/slot.yaml; known: ${known.join(', ') || 'none'})`));
      });
    }
  }
  return out;
}

function slotIds(dir: string): string[] | undefined {
  if (!existsSync(dir)) return [];
  try {
    return readdirSync(dir).filter((d) => statSync(join(dir, d)).isDirectory() && existsSync(join(dir, d, 'slot.yaml')));
  } catch {
    return undefined;
  }
}

function valueRange(doc: Document, path: (string | number)[]): [number, number] | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return [node.range[0], node.range[1]];
  }
  return undefined;
}

function keyRange(doc: Document, path: (string | number)[]): [number, number] | undefined {
  const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
  const key = path[path.length - 1];
  if (isMap(parent)) {
    for (const pair of parent.items) {
      const k = pair.key as { value?: unknown; range?: [number, number, number] } | null;
      if (k && k.value === key && k.range) return [k.range[0], k.range[1]];
    }
  }
  return valueRange(doc, path.slice(0, -1));
}

/** Every manifest of an agent core folder (the folder itself, or its `agent/` surface). */
export function checkCoreFolder(folder: string): { file: string; problems: ManifestProblem[] }[] {
  const surface = existsSync(join(folder, 'agent', 'pipelines.yaml')) || !existsSync(join(folder, 'pipelines.yaml')) ? join(folder, 'agent') : folder;
  const out: { file: string; problems: ManifestProblem[] }[] = [];
  const pipelines = join(surface, 'pipelines.yaml');
  if (!existsSync(pipelines)) {
    out.push({ file: pipelines, problems: [{ message: `pipelines.yaml is required (looked in ${surface})`, severity: 'error', range: { startLine: 0, startCol: 0, endLine: 0, endCol: 0 } }] });
  } else {
    out.push({ file: pipelines, problems: checkManifest(pipelines, readFileSync(pipelines, 'utf8')) });
  }
  for (const phase of ['bootstrap', 'input', 'output']) {
    for (const id of slotIds(join(surface, phase)) ?? []) {
      const file = join(surface, phase, id, 'slot.yaml');
      out.push({ file, problems: checkManifest(file, readFileSync(file, 'utf8')) });
    }
  }
  return out;
}
