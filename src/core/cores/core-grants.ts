import { isMap, isScalar, type Node as YamlNode, type Pair } from 'yaml';
import { capabilityProblem } from './capabilities.js';
import { parseYamlFile, type Problem } from './problems.js';

/**
 * Capability grants from the core's own configuration, `<core>/agent.yaml` (as upstream): only its
 * `capabilities` section is read, the rest of the file is upstream's runtime configuration, which
 * Pepe takes from its own config instead.
 *
 * ```yaml
 * capabilities:
 *   defaults:                     # every slot of the core
 *     network.fetch: { requires_approval: true }
 *   slots:
 *     agent/output/archive:       # one slot, by its core-relative path
 *       fs.write: { scope: workspace }
 * ```
 *
 * A grant's settings (scope, limits) are not interpreted: a capability never bypasses Pepe's own
 * rules (the barrier, the workspace scope), which are the limits that apply.
 */
export interface CoreGrants {
  defaults: string[];
  /** Core-relative slot path (`agent/input/x`) → capabilities. */
  slots: Record<string, string[]>;
}

export const noGrants = (): CoreGrants => ({ defaults: [], slots: {} });

export function parseCoreGrants(file: string, text: string): { grants: CoreGrants; problems: Problem[] } {
  const y = parseYamlFile(file, text);
  const grants = noGrants();
  const problems: Problem[] = [...y.syntax];
  if (problems.length) return { grants, problems };
  const root = y.doc.contents;
  if (!isMap(root)) return { grants, problems };
  const section = (root.items as Pair<YamlNode, YamlNode>[]).find((p) => isScalar(p.key) && p.key.value === 'capabilities')?.value;
  if (section == null || (isScalar(section) && section.value == null)) return { grants, problems };
  if (!isMap(section)) {
    problems.push(y.at(section, 'capabilities: expected a mapping with "defaults" and/or "slots"'));
    return { grants, problems };
  }
  const caps = (node: YamlNode | null, where: string): string[] => {
    if (node == null || (isScalar(node) && node.value == null)) return [];
    if (!isMap(node)) {
      problems.push(y.at(node, `${where}: expected a mapping of capability names (each with its settings, or {})`));
      return [];
    }
    const out: string[] = [];
    for (const pair of node.items as Pair<YamlNode, YamlNode>[]) {
      const name = isScalar(pair.key) ? String(pair.key.value) : '';
      const why = capabilityProblem(name);
      if (why) problems.push(y.at(pair.key, why));
      else out.push(name);
    }
    return out;
  };
  for (const pair of section.items as Pair<YamlNode, YamlNode>[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '?';
    if (key === 'defaults') grants.defaults = caps(pair.value, 'capabilities.defaults');
    else if (key === 'slots') {
      if (pair.value == null || (isScalar(pair.value) && pair.value.value == null)) continue;
      if (!isMap(pair.value)) {
        problems.push(y.at(pair.value, 'capabilities.slots: expected a mapping of slot paths (such as agent/input/x)'));
        continue;
      }
      for (const slot of pair.value.items as Pair<YamlNode, YamlNode>[]) {
        const path = isScalar(slot.key) ? String(slot.key.value).replace(/\/+$/, '') : '?';
        grants.slots[path] = [...(grants.slots[path] ?? []), ...caps(slot.value, `capabilities.slots.${path}`)];
      }
    } else problems.push(y.at(pair.key, `unknown key "${key}" under capabilities; the keys are: defaults, slots`));
  }
  return { grants, problems };
}

/** A slot's capabilities: its own, the core's defaults, and those granted to its path. */
export function slotGrantsFrom(own: readonly string[], core: CoreGrants, slotPath: string): string[] {
  return [...new Set([...own, ...core.defaults, ...(core.slots[slotPath] ?? [])])];
}
