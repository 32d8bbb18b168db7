import { isMap, isScalar, isSeq, type Node as YamlNode, type Pair } from 'yaml';
import { parseYamlFile, type Problem } from './problems.js';
import { PHASES, type Phase } from '../core-events.js';

export { PHASES, type Phase };

export const GROUPS = ['serial', 'parallel'] as const;
export type Group = (typeof GROUPS)[number];

/** One phase's pipeline: serial slots in order, then parallel ones run together. */
export interface PhasePipeline {
  serial: string[];
  parallel: string[];
}

export interface Pipelines {
  schemaVersion: 1;
  bootstrap: PhasePipeline;
  input: PhasePipeline;
  output: PhasePipeline;
}

export const emptyPipeline = (): PhasePipeline => ({ serial: [], parallel: [] });

/**
 * Validates `agent/pipelines.yaml` against the slots found on disk (`known[phase]` = slot ids),
 * reporting every problem with its line and column.
 */
export function parsePipelines(file: string, text: string, known: Record<Phase, ReadonlySet<string>>): { pipelines: Pipelines | null; problems: Problem[] } {
  const y = parseYamlFile(file, text);
  const problems: Problem[] = [...y.syntax];
  if (problems.length) return { pipelines: null, problems };
  const root = y.doc.contents;
  if (!isMap(root)) {
    problems.push(y.at(root, 'pipelines.yaml must be a mapping starting with "schema_version: 1"'));
    return { pipelines: null, problems };
  }
  const out: Pipelines = { schemaVersion: 1, bootstrap: emptyPipeline(), input: emptyPipeline(), output: emptyPipeline() };
  let sawVersion = false;
  for (const pair of root.items as Pair<YamlNode, YamlNode>[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '?';
    if (key === 'schema_version') {
      sawVersion = true;
      const v = isScalar(pair.value) ? pair.value.value : undefined;
      if (v !== 1) problems.push(y.at(pair.value ?? pair.key, `schema_version must be 1, got ${JSON.stringify(pair.value?.toJSON() ?? null)}`));
      continue;
    }
    if (!(PHASES as readonly string[]).includes(key)) {
      problems.push(y.at(pair.key, `unknown phase "${key}"; the phases are: ${PHASES.join(', ')}`));
      continue;
    }
    const phase = key as Phase;
    const value = pair.value;
    if (value == null || (isScalar(value) && value.value == null)) continue;
    if (!isMap(value)) {
      problems.push(y.at(value, `${phase} must be a mapping with ${phase === 'bootstrap' ? '"serial"' : '"serial" and/or "parallel"'} lists`));
      continue;
    }
    const seen = new Map<string, { group: Group; line: number }>();
    for (const groupPair of value.items as Pair<YamlNode, YamlNode>[]) {
      const groupKey = isScalar(groupPair.key) ? String(groupPair.key.value) : '?';
      if (!(GROUPS as readonly string[]).includes(groupKey)) {
        problems.push(y.at(groupPair.key, `unknown key "${groupKey}" under ${phase}; the keys are: ${phase === 'bootstrap' ? 'serial' : GROUPS.join(', ')}`));
        continue;
      }
      const group = groupKey as Group;
      if (phase === 'bootstrap' && group === 'parallel') {
        problems.push(y.at(groupPair.key, 'bootstrap supports serial only; move these slots to bootstrap.serial'));
        continue;
      }
      const list = groupPair.value;
      if (list == null || (isScalar(list) && list.value == null)) continue;
      if (!isSeq(list)) {
        problems.push(y.at(list, `${phase}.${group} must be a list of slot ids`));
        continue;
      }
      for (const item of list.items as YamlNode[]) {
        const id = isScalar(item) && typeof item.value === 'string' ? item.value : null;
        if (id === null) {
          problems.push(y.at(item, `${phase}.${group}: expected a slot id (a string), got ${JSON.stringify((item as YamlNode | null)?.toJSON?.() ?? null)}`));
          continue;
        }
        const first = seen.get(id);
        if (first) {
          problems.push(y.at(item, `slot "${id}" appears twice in the ${phase} pipeline (already in ${phase}.${first.group} at line ${first.line}); a slot may run once per pipeline`));
          continue;
        }
        seen.set(id, { group, line: y.at(item, '').line });
        if (!known[phase].has(id)) {
          const elsewhere = PHASES.filter((p) => p !== phase && known[p].has(id));
          const hint = elsewhere.length
            ? `; "${id}" is a ${elsewhere.join('/')} slot, and slots run only in their own phase`
            : `; create agent/${phase}/${id}/ with slot.yaml and a module, or use one of: ${[...known[phase]].sort().join(', ') || '(none yet)'}`;
          problems.push(y.at(item, `unknown ${phase} slot "${id}"${hint}`));
          continue;
        }
        out[phase][group].push(id);
      }
    }
  }
  if (!sawVersion) problems.push(y.at(root, 'missing "schema_version: 1"'));
  return { pipelines: problems.length ? null : out, problems };
}
