/** The skills a turn can load (interop/skills.ts finds them): a leaf, so the tool context can name it. */

export interface Skill {
  name: string;
  description: string;
  /** Where the person sees it: `.claude/skills/review/SKILL.md`, `~pepe/skills/review/SKILL.md`. */
  shownAs: string;
  source: 'home' | 'workspace';
  /** The skill's folder: what load_skill may read is confined to its real location. */
  dir: string;
}

export interface SkillProblem {
  file: string;
  message: string;
}

export interface SkillCatalog {
  skills: Skill[];
  /** Skills hidden by one of the same name found earlier. */
  shadowed: { skill: Skill; by: Skill }[];
  problems: SkillProblem[];
}
