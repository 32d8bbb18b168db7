import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { looksLikeSecretFile } from '../secrets/secret-file-names.js';
import type { Skill, SkillCatalog } from './skill-types.js';
import { isFolderWithin, readAhead, readTextFile, relativeName, sortedEntries, splitFrontMatter } from './text-files.js';

/**
 * Skills in the open Agent Skills layout (issue 24): `<dir>/<name>/SKILL.md` with `name` and
 * `description` front matter, and optional files beside it. Only the descriptions go into the
 * prompt; the body and its files are read when the model asks (the `load_skill` tool) or an
 * agent core activates one (`ctx.skills.activate`).
 *
 * Where from, first found wins a name: `$PEPE_HOME/skills/` (the person's own), then the
 * workspace's `.pepe/skills/`, `.claude/skills/`, `.github/skills/` (trusted workspaces only). A
 * repository cannot replace a person's skill of the same name; the one it hides is reported.
 */

export const SKILL_DIRS_IN_WORKSPACE = ['.pepe/skills', '.claude/skills', '.github/skills'] as const;
/** Characters of a skill's body, or of one of its files, given at most. */
export const SKILL_FILE_CHARS = 64_000;
/** Characters of one description in the prompt's list. */
export const SKILL_DESCRIPTION_CHARS = 1024;
/** Skills listed in the prompt at most (the rest are still loadable by name). */
export const MAX_LISTED_SKILLS = 64;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type { Skill, SkillCatalog, SkillProblem } from './skill-types.js';

export interface SkillSources {
  /** $PEPE_HOME. */
  home: string;
  /** The project's root, or null when the workspace is not trusted (no workspace skill loads). */
  root: string | null;
}

/** Every skill Pepe can see now, in precedence order. */
export async function discoverSkills(sources: SkillSources): Promise<SkillCatalog> {
  const catalog: SkillCatalog = { skills: [], shadowed: [], problems: [] };
  const places: { dir: string; confine: string | null; source: Skill['source']; shown: (rel: string) => string }[] = [
    { dir: join(sources.home, 'skills'), confine: null, source: 'home', shown: (rel) => `$PEPE_HOME/skills/${rel}` },
  ];
  if (sources.root) {
    for (const d of SKILL_DIRS_IN_WORKSPACE) places.push({ dir: join(sources.root, d), confine: sources.root, source: 'workspace', shown: (rel) => `${d}/${rel}` });
  }
  const byName = new Map<string, Skill>();
  // A workspace's skill folder (or a skill in it) that leads outside the workspace is not read.
  // The places are listed at once and their skills read ahead, then taken in precedence order: a
  // turn's start waited on the file system once per place, most of them missing (issue 27).
  const listed = places.map(async (place) => ((await isFolderWithin(place.dir, place.confine ?? place.dir)) ? sortedEntries(place.dir) : []));
  const skillFile = async (dir: string, confine: string | null) => ((await isFolderWithin(dir, confine ?? dir)) ? readTextFile(join(dir, 'SKILL.md'), confine ?? dir, SKILL_FILE_CHARS) : null);
  for (const [i, place] of places.entries()) {
    for await (const [entry, file] of readAhead(await listed[i]!, (entry) => skillFile(join(place.dir, entry), place.confine))) {
      const dir = join(place.dir, entry);
      const shownAs = place.shown(`${entry}/SKILL.md`);
      if (!file) continue;
      const fm = splitFrontMatter(file.text);
      const problem = (message: string) => catalog.problems.push({ file: shownAs, message });
      if (fm.error) {
        problem(fm.error);
        continue;
      }
      const { name, description } = fm.data;
      if (typeof name !== 'string' || !NAME.test(name)) {
        problem(`line 2: "name" is missing or not a skill name (letters, digits, '_', '-', '.'; it names the folder, "${entry}")`);
        continue;
      }
      if (name !== entry) {
        problem(`"name" is "${name}" but the skill's folder is "${entry}": they must be the same`);
        continue;
      }
      if (typeof description !== 'string' || !description.trim()) {
        problem('"description" is missing: it tells the model when to use the skill');
        continue;
      }
      const skill: Skill = { name, description: Array.from(description.trim().replace(/\s+/g, ' ')).slice(0, SKILL_DESCRIPTION_CHARS).join(''), shownAs, source: place.source, dir };
      const earlier = byName.get(name);
      if (earlier) catalog.shadowed.push({ skill, by: earlier });
      else {
        byName.set(name, skill);
        catalog.skills.push(skill);
      }
    }
  }
  return catalog;
}

/** The short list the prompt carries: names and descriptions only. */
export function skillsListMessage(skills: readonly Skill[]): string | null {
  if (!skills.length) return null;
  const listed = skills.slice(0, MAX_LISTED_SKILLS).map((s) => `- ${s.name}: ${s.description}`);
  if (skills.length > MAX_LISTED_SKILLS) listed.push(`- (${skills.length - MAX_LISTED_SKILLS} more, loadable by name)`);
  return [
    'Skills you can load with the load_skill tool when a task matches one (loading gives its instructions and lists its files; skills from the workspace are text and grant no permissions):',
    ...listed,
  ].join('\n');
}

/** Files beside SKILL.md (two levels down at most), for the model to load by name. */
async function filesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string, depth: number) => {
    for (const name of await sortedEntries(at)) {
      if (out.length >= 100 || name.startsWith('.')) continue;
      const path = join(at, name);
      if (await isFolderWithin(path, dir)) {
        if (depth < 2) await walk(path, depth + 1);
      } else if (!(depth === 0 && name === 'SKILL.md')) out.push(relativeName(dir, path));
    }
  };
  await walk(dir, 0);
  return out;
}

export type SkillRead = { ok: true; text: string } | { ok: false; error: string };

/**
 * A skill's body (front matter left out) with the list of its files, or one of its files: read
 * only inside the skill's real folder, never a secret-looking file, capped.
 */
export async function readSkill(catalog: SkillCatalog, name: string, file?: string): Promise<SkillRead> {
  const skill = catalog.skills.find((s) => s.name === name);
  if (!skill) {
    const known = catalog.skills.map((s) => s.name);
    return { ok: false, error: `no skill named "${name}"${known.length ? `; skills: ${known.join(', ')}` : ''}` };
  }
  const realDir = await realpath(skill.dir).catch(() => null);
  if (!realDir) return { ok: false, error: `skill "${name}" is no longer at ${skill.shownAs}` };
  if (file === undefined || file === 'SKILL.md') {
    const read = await readTextFile(join(realDir, 'SKILL.md'), realDir, SKILL_FILE_CHARS);
    if (!read) return { ok: false, error: `cannot read ${skill.shownAs}` };
    const body = splitFrontMatter(read.text).body.trim();
    const files = await filesOf(realDir);
    const parts = [`<skill name="${skill.name}" source="${skill.shownAs}">`, body, read.cut ? `[… cut here: longer than ${SKILL_FILE_CHARS} characters]` : null, '</skill>'];
    if (files.length) parts.push(`Files of this skill (load one with load_skill and "file"): ${files.join(', ')}`);
    return { ok: true, text: parts.filter((p) => p !== null).join('\n') };
  }
  const target = resolve(realDir, file);
  const rel = relative(realDir, target);
  if (isAbsolute(file) || rel === '' || rel.startsWith('..') || rel.split(sep).includes('..')) return { ok: false, error: `"${file}" is not a file of skill "${name}": name a file inside its folder, relative to it` };
  if (looksLikeSecretFile(target)) return { ok: false, error: `"${file}" looks like a file of credentials: load_skill does not read it` };
  const read = await readTextFile(target, realDir, SKILL_FILE_CHARS);
  if (!read) return { ok: false, error: `skill "${name}" has no readable file "${file}" inside its folder` };
  return { ok: true, text: `<skill-file skill="${skill.name}" file="${relativeName(realDir, target)}">\n${read.text}${read.cut ? `\n[… cut here: longer than ${SKILL_FILE_CHARS} characters]` : ''}\n</skill-file>` };
}
