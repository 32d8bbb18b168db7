import type { AgentConfig } from '../config/schema.js';

/**
 * Permission presets for an agent (issue 25): a few settings chosen by name, in `pepe agent add
 * --preset NAME` and in the editor's Add/Edit Agent. Each sets the agent's saved approvals
 * (`auto_approve`) and whether its conversations start in plan mode, and says in words exactly
 * what it lets run without asking; a unit test holds each to its words. What no preset changes:
 * reading files inside the workspace needs no approval, a command that carries no risk at all runs
 * unasked while a person watches, commands that could wreck the machine or write into Pepe's home
 * never run, and outside content (web pages, files from outside the workspace) withdraws the saved
 * approvals until the person trusts the conversation again.
 */

export const PRESET_NAMES = ['ask', 'read-only', 'harmless', 'sandbox'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export interface PermissionPreset {
  name: PresetName;
  label: string;
  /** What it lets run without asking, and what stays asked or refused. */
  words: string;
  auto_approve: string[];
  plan_mode: boolean;
}

export const PERMISSION_PRESETS: Readonly<Record<PresetName, PermissionPreset>> = {
  ask: {
    name: 'ask',
    label: 'Ask for everything',
    words:
      'Nothing is pre-approved: every command that carries any risk, every write and edit, and every MCP or plugin tool call is asked (with nobody there to ask, it waits as a pending approval). Reading inside the workspace, and commands that carry no risk at all while you watch, need no approval for any agent.',
    auto_approve: [],
    plan_mode: false,
  },
  'read-only': {
    name: 'read-only',
    label: 'Read-only',
    words:
      'Only tools that read run: reading files, memory and web search, and commands that carry no risk at all (also when nobody is watching). Writes, edits, other commands and MCP tools that do not say they only read are refused without asking (its conversations start in plan mode; switch a conversation to act to be asked instead).',
    // Commands that only read run with nobody watching too (plan mode refuses the rest unasked).
    auto_approve: ['bash:none'],
    plan_mode: true,
  },
  harmless: {
    name: 'harmless',
    label: 'Harmless commands only',
    words:
      'Commands that carry no risk at all (ls, cat, grep, git status…) run without asking, also when nobody is watching (pepe run, heartbeats). Everything else is asked: commands that write, delete, use the network or run programs the barrier does not know, writes and edits, MCP and plugin tools.',
    auto_approve: ['bash:none'],
    plan_mode: false,
  },
  sandbox: {
    name: 'sandbox',
    label: 'Everything in the sandbox',
    words:
      "Every command runs without asking inside the sandbox (which lets it write only in the workspace and the places you allowed), and writes and edits of files inside the workspace run without asking. Still asked: any command while the sandbox cannot confine commands, writes outside the workspace, changes to files that decide what runs later (git hooks and configuration, editor tasks, package scripts), MCP and plugin tools. Never run: commands that could wreck the machine or write into Pepe's home.",
    auto_approve: ['bash', 'run_script', 'write_file:write', 'edit_file:write'],
    plan_mode: false,
  },
};

export function isPresetName(name: string): name is PresetName {
  return (PRESET_NAMES as readonly string[]).includes(name);
}

export function presetNamed(name: string): PermissionPreset {
  if (!isPresetName(name)) throw new Error(`unknown permission preset "${name}"; the presets are: ${PRESET_NAMES.join(', ')}`);
  return PERMISSION_PRESETS[name];
}

/** The agent's settings with the preset applied: its saved approvals replaced, plan mode set or cleared. */
export function withPreset(agent: AgentConfig, preset: PermissionPreset): AgentConfig {
  const { plan_mode: _p, auto_approve: _a, ...rest } = agent;
  return { ...rest, auto_approve: [...preset.auto_approve], ...(preset.plan_mode ? { plan_mode: true } : {}) };
}

/** The preset an agent's settings match exactly, if any (for showing it in Edit Agent). */
export function presetOf(agent: Pick<AgentConfig, 'auto_approve' | 'plan_mode'>): PresetName | null {
  const list = agent.auto_approve === undefined ? [] : agent.auto_approve;
  if (list === '*') return null;
  const key = [...list].sort().join('\n');
  for (const p of Object.values(PERMISSION_PRESETS)) {
    if ([...p.auto_approve].sort().join('\n') === key && (agent.plan_mode === true) === p.plan_mode) return p.name;
  }
  return null;
}
