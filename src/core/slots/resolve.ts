import type { PepeConfig } from '../config/schema.js';
import type { SlotName } from './names.js';

export type SlotScope = 'agent' | 'project' | 'install';

/** Which plugin (if any) the configuration names for a slot, and at which level. */
export interface ConfiguredOccupant {
  slot: SlotName;
  /** The plugin name configured, or null when nothing is: the built-in answers. */
  configured: string | null;
  scope: SlotScope | null;
}

export interface ResolveTarget {
  agent?: string | null;
  /** Explicit project; otherwise the agent's own `project`. */
  project?: string | null;
}

export function projectOf(config: PepeConfig, target: ResolveTarget): string | null {
  if (target.project) return target.project;
  if (target.agent) return config.agents?.[target.agent]?.project ?? null;
  return null;
}

/**
 * Slot values that name the built-in rather than a plugin: set at a scope, the built-in answers
 * for that scope (install-wide it is the same as leaving the slot unset).
 */
export const BUILTIN_VALUES: readonly string[] = ['default', 'builtin'];

export function namesBuiltin(value: string): boolean {
  return BUILTIN_VALUES.includes(value.toLowerCase());
}

/** Spec 3.3: agent override → project default → install-wide → built-in. */
export function resolveConfigured(config: PepeConfig, slot: SlotName, target: ResolveTarget = {}): ConfiguredOccupant {
  const found = (value: string | undefined, scope: SlotScope): ConfiguredOccupant | null =>
    value ? { slot, configured: namesBuiltin(value) ? null : value, scope: namesBuiltin(value) && scope === 'install' ? null : scope } : null;
  const agent = target.agent ? config.agents?.[target.agent] : undefined;
  const project = projectOf(config, target);
  return (
    found(agent?.slots?.[slot], 'agent') ??
    found(project ? config.projects?.[project]?.default_slots?.[slot] : undefined, 'project') ??
    found(config.slots?.[slot], 'install') ?? { slot, configured: null, scope: null }
  );
}
