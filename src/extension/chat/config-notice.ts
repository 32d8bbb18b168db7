import type { SectionProblem } from '../../core/config/sections.js';

/** What the chat needs to know about config.json: the host's problem, and what the core read. */
export interface ConfigState {
  /** The problem that stopped the last read of config.json (PepeHost.configProblem), else null. */
  problem: string | null;
  /** Whether a configuration was read before that problem (the core keeps running on it). */
  hasLastGood: boolean;
  /** Sections of config.json set aside because they are broken; the rest applies. */
  setAside: readonly SectionProblem[];
  /** Dotted paths of keys Pepe does not know (a misspelt field such as `mcp_servers` in an agent): kept, not used. */
  unknown?: readonly string[];
}

/**
 * The line the chat shows before a turn when the configuration it runs on is not the file as
 * written: the last good one (config.json no longer reads), or the file without broken sections.
 * Null when the file applies as written. A person can act on it: the text names the problem.
 */
export function configNotice(state: ConfigState): { level: 'warning' | 'error'; text: string } | null {
  if (state.problem) {
    return state.hasLastGood
      ? { level: 'warning', text: `config.json has a problem, so this chat runs on the last good configuration Pepe read before it. Fix the file (Pepe: Open config.json); it is re-read when saved. The problem: ${state.problem}` }
      : { level: 'error', text: `config.json has a problem and no earlier configuration was read: this chat runs with none. Fix the file (Pepe: Open config.json). The problem: ${state.problem}` };
  }
  if (state.setAside.length) {
    const parts = state.setAside.map((s) => `${s.section} (${s.problems.join('; ')})`);
    return { level: 'warning', text: `Parts of config.json are broken and set aside (they take their defaults); the rest applies: ${parts.join('; ')}. Fix them with Pepe: Open config.json.` };
  }
  if (state.unknown?.length) {
    const keys = state.unknown.slice(0, 5).map((k) => `"${k}"`).join(', ') + (state.unknown.length > 5 ? ` and ${state.unknown.length - 5} more` : '');
    return { level: 'warning', text: `config.json has key${state.unknown.length === 1 ? '' : 's'} Pepe does not know, so ${state.unknown.length === 1 ? 'it does' : 'they do'} nothing: ${keys}. Check the spelling (Pepe: Open config.json); the file is kept as written.` };
  }
  return null;
}
