import type { Expansion, PromptCatalog } from '../../core/interop/prompts.js';
import type { Pepe } from '../../core/pepe.js';
import type { ChatItem, SlashCommand } from '../../protocol/messages.js';

/**
 * The chat's `/` commands (issue 24): its own (`/agent`, `/new`, `/help`) and the prompt files
 * `/name args` expands, for the input's completion and for `/help`. Only types come from the
 * core here: the prompt files are read through the running Pepe, so this stays out of the
 * activation bundle.
 */
const BUILTIN: SlashCommand[] = [
  { name: 'agent', detail: 'NAME: hand the conversation to the agent NAME', kind: 'command' },
  { name: 'new', detail: 'start a new session', kind: 'command' },
  { name: 'help', detail: 'the chat’s commands and the prompt files', kind: 'command' },
];

export function slashCommands(catalog: PromptCatalog): SlashCommand[] {
  return [...BUILTIN, ...catalog.prompts.map((p) => ({ name: p.name, detail: `${p.description ?? 'prompt file'} (${p.shownAs})`, kind: 'prompt' as const }))];
}

/** `/help`: what can be typed after a `/`, said in the conversation. */
export async function helpItem(pepe: Pepe): Promise<ChatItem> {
  const catalog = await pepe.promptCatalog();
  const lines = slashCommands(catalog).map((c) => `/${c.name} — ${c.detail}`);
  const none = catalog.prompts.length ? '' : ' No prompt files yet: add one as .pepe/prompts/NAME.md (or .github/prompts/NAME.prompt.md, or in $PEPE_HOME/prompts/).';
  const hidden = catalog.shadowed.map((s) => `${s.prompt.shownAs} is hidden by ${s.by}`);
  return { kind: 'notice', level: 'info', text: `Commands: ${lines.join('; ')}.${none}${hidden.length ? ` (${hidden.join('; ')})` : ''}` };
}

/** The text the turn is given, and what the conversation says about it (the prompt used, or why nothing was sent). */
export function expansionOutcome(typed: string, expansion: Expansion): { text: string | null; notice: ChatItem | null } {
  if (expansion.kind === 'none') return { text: typed, notice: null };
  if (expansion.kind === 'error') return { text: null, notice: { kind: 'notice', level: 'error', text: `${expansion.message}; nothing was sent.` } };
  return { text: expansion.text, notice: { kind: 'notice', level: 'info', text: `Using the prompt /${expansion.prompt.name} (${expansion.prompt.shownAs}).` } };
}
