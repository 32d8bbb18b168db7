import { join } from 'node:path';
import { isFolderWithin, readTextFile, sortedEntries, splitFrontMatter } from './text-files.js';

/**
 * Reusable prompts (issue 24): `/name args` typed in a chat, or as the text of `pepe run`, is
 * replaced by the text of the prompt file `name`, with `$ARGUMENTS` (everything after the name)
 * and `$1`…`$9` (its words; "quoted words" count as one) filled in. A file without a placeholder
 * gets the arguments after its text. Front matter is left out; its `description` is what lists
 * show (VS Code's other `.prompt.md` fields, such as mode, model or tools, are ignored).
 *
 * Where from, first found wins a name: `$PEPE_HOME/prompts/<name>.md` (the person's own), then
 * the workspace's `.pepe/prompts/<name>.md` and `.github/prompts/<name>.prompt.md` (trusted
 * workspaces only). The chat's own commands win over a prompt of the same name.
 */

/** The chat's own commands: never a prompt's name. */
export const BUILTIN_CHAT_COMMANDS = ['agent', 'new', 'exit', 'quit', 'help'] as const;
/** Characters of a prompt file used at most. */
export const PROMPT_FILE_CHARS = 32_000;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface PromptFile {
  name: string;
  description: string | null;
  /** Where the person sees it: `.pepe/prompts/review.md`, `$PEPE_HOME/prompts/review.md`. */
  shownAs: string;
  source: 'home' | 'workspace';
  path: string;
  /** Reads are confined to this folder's real location. */
  confine: string;
}

export interface PromptCatalog {
  prompts: PromptFile[];
  /** Hidden by a built-in command or an earlier prompt of the same name. */
  shadowed: { prompt: PromptFile; by: string }[];
}

/** Every prompt file Pepe can see now (`root`: the project's root, or null when the workspace is not trusted). */
export async function discoverPrompts(sources: { home: string; root: string | null }): Promise<PromptCatalog> {
  const places: { dir: string; suffix: string; shown: string; source: PromptFile['source']; confine: string | null }[] = [
    { dir: join(sources.home, 'prompts'), suffix: '.md', shown: '$PEPE_HOME/prompts/', source: 'home', confine: null },
  ];
  if (sources.root) {
    places.push({ dir: join(sources.root, '.pepe', 'prompts'), suffix: '.md', shown: '.pepe/prompts/', source: 'workspace', confine: sources.root });
    places.push({ dir: join(sources.root, '.github', 'prompts'), suffix: '.prompt.md', shown: '.github/prompts/', source: 'workspace', confine: sources.root });
  }
  const catalog: PromptCatalog = { prompts: [], shadowed: [] };
  const taken = new Map<string, string>(BUILTIN_CHAT_COMMANDS.map((c) => [c, `the chat command /${c}`]));
  for (const place of places) {
    const confine = place.confine ?? place.dir;
    if (!(await isFolderWithin(place.dir, confine))) continue;
    for (const entry of await sortedEntries(place.dir)) {
      if (!entry.endsWith(place.suffix)) continue;
      // `.github/prompts/x.prompt.md` is not also the prompt `x.prompt` of `.pepe/prompts/`.
      if (place.suffix === '.md' && entry.endsWith('.prompt.md') && place.source === 'workspace') continue;
      const name = entry.slice(0, -place.suffix.length);
      if (!NAME.test(name)) continue;
      const path = join(place.dir, entry);
      const file = await readTextFile(path, confine, 4096);
      if (!file) continue;
      const fm = splitFrontMatter(file.text);
      const description = typeof fm.data.description === 'string' && fm.data.description.trim() ? fm.data.description.trim().replace(/\s+/g, ' ').slice(0, 200) : null;
      const prompt: PromptFile = { name, description, shownAs: `${place.shown}${entry}`, source: place.source, path, confine };
      const by = taken.get(name.toLowerCase());
      if (by) catalog.shadowed.push({ prompt, by });
      else {
        taken.set(name.toLowerCase(), prompt.shownAs);
        catalog.prompts.push(prompt);
      }
    }
  }
  return catalog;
}

/** One line per prompt, for a chat's `/help` and lists: `/review — Review the diff (.pepe/prompts/review.md)`. */
export function promptLines(catalog: PromptCatalog): string[] {
  return catalog.prompts.map((p) => `/${p.name}${p.description ? ` — ${p.description}` : ''} (${p.shownAs})`);
}

/** `/name rest`: the name and the raw arguments, or null when the text is not a slash command. */
export function slashCommand(text: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9][A-Za-z0-9_.-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1]!, args: (m[2] ?? '').trim() } : null;
}

/** The words of the arguments: runs of non-space, or "double" / 'single' quoted text (quotes removed). */
export function argumentWords(args: string): string[] {
  const out: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** Fills `$ARGUMENTS` and `$1`…`$9` in one pass (text put in is never expanded again). */
export function fillPlaceholders(body: string, args: string): string {
  const words = argumentWords(args);
  const placeholder = /\$(ARGUMENTS|[1-9])/g;
  if (!/\$(ARGUMENTS|[1-9])/.test(body)) return args ? `${body.trimEnd()}\n\n${args}` : body;
  return body.replace(placeholder, (_, what: string) => (what === 'ARGUMENTS' ? args : words[Number(what) - 1] ?? ''));
}

export type Expansion =
  /** Not a prompt: send the text as typed (an unknown `/word` is a message like any other). */
  | { kind: 'none' }
  | { kind: 'expanded'; prompt: PromptFile; text: string }
  /** A prompt by that name exists but cannot be used now: say so, send nothing. */
  | { kind: 'error'; message: string };

/** What `text` becomes: a prompt's text with its arguments filled in, or the text itself. */
export async function expandPrompt(text: string, catalog: PromptCatalog): Promise<Expansion> {
  const command = slashCommand(text);
  if (!command) return { kind: 'none' };
  const prompt = catalog.prompts.find((p) => p.name === command.name);
  if (!prompt) return { kind: 'none' };
  const file = await readTextFile(prompt.path, prompt.confine, PROMPT_FILE_CHARS);
  if (!file) return { kind: 'error', message: `the prompt /${prompt.name} (${prompt.shownAs}) can no longer be read` };
  const fm = splitFrontMatter(file.text);
  if (fm.error) return { kind: 'error', message: `${prompt.shownAs}: ${fm.error}` };
  const body = fm.body.trim();
  if (!body) return { kind: 'error', message: `the prompt /${prompt.name} (${prompt.shownAs}) is empty` };
  return { kind: 'expanded', prompt, text: fillPlaceholders(body, command.args) };
}
