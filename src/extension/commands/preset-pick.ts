import { PERMISSION_PRESETS, PRESET_NAMES, presetOf, type PermissionPreset } from '../../core/permissions/presets.js';
import type { AgentConfig } from '../../core/config/schema.js';
import type { InputFlow } from './input-flow.js';
import { pick } from './ui.js';

/** Add/Edit Agent: what the agent may do without asking, one of the core's presets, each in its own words. */
export async function pickPreset(agent: string, current?: Pick<AgentConfig, 'auto_approve' | 'plan_mode'>, flow?: InputFlow): Promise<PermissionPreset> {
  const now = current ? presetOf(current) : null;
  const items = PRESET_NAMES.map((n) => {
    const p = PERMISSION_PRESETS[n];
    return { label: p.label, description: n === now ? '(now)' : '', detail: p.words, value: p };
  });
  const placeholder = current && now === null ? 'what it may do without asking (its saved approvals now match no preset; choosing one replaces them)' : 'what it may do without asking';
  // Inside Add/Edit Agent's one quick input (the keyboard stays in it); alone, a pick of its own.
  const chosen = flow ? await flow.pick(items, { placeholder }) : await pick(items, { title: `Pepe: ${agent}: permissions`, placeHolder: placeholder });
  return chosen.value;
}

/** A one-line description of an agent's permissions for the Edit Agent picker. */
export function presetDescription(current: Pick<AgentConfig, 'auto_approve' | 'plan_mode'>): string {
  const now = presetOf(current);
  if (now) return PERMISSION_PRESETS[now].label;
  const list = current.auto_approve;
  return list === '*' ? 'everything pre-approved ("*")' : `${list?.length ?? 0} saved approvals`;
}
