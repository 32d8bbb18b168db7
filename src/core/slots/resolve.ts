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

/** Spec 3.3: agent override → project default → install-wide → built-in. */
export function resolveConfigured(config: PepeConfig, slot: SlotName, target: ResolveTarget = {}): ConfiguredOccupant {
  const agent = target.agent ? config.agents?.[target.agent] : undefined;
  const fromAgent = agent?.slots?.[slot];
  if (fromAgent) return { slot, configured: fromAgent, scope: 'agent' };
  const project = projectOf(config, target);
  const fromProject = project ? config.projects?.[project]?.default_slots?.[slot] : undefined;
  if (fromProject) return { slot, configured: fromProject, scope: 'project' };
  const fromInstall = config.slots?.[slot];
  if (fromInstall) return { slot, configured: fromInstall, scope: 'install' };
  return { slot, configured: null, scope: null };
}
