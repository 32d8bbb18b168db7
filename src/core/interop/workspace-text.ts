import type { DoctorFinding } from '../doctor-finding.js';
import { visibleLine } from '../display.js';
import { discoverPrompts, expandPrompt, type Expansion, type PromptCatalog } from './prompts.js';
import { discoverSkills, type SkillCatalog } from './skills.js';
import { projectRoot } from './text-files.js';

/**
 * The prompt files and skills a surface lists and expands (issue 24), as the facade offers them:
 * the person's own in $PEPE_HOME always, the workspace's only while it is trusted.
 */
export class WorkspaceText {
  constructor(
    private readonly home: string,
    private readonly workspace: string,
    private readonly trusted: () => boolean,
  ) {}

  /** The project's root (where instruction, skill and prompt files are looked for), or null when untrusted. */
  async root(): Promise<string | null> {
    return this.trusted() ? projectRoot(this.workspace) : null;
  }

  async prompts(): Promise<PromptCatalog> {
    return discoverPrompts({ home: this.home, root: await this.root() });
  }

  async skills(): Promise<SkillCatalog> {
    return discoverSkills({ home: this.home, root: await this.root() });
  }

  /** For `pepe doctor`: skill files that cannot be used (with the line), and skills and prompts another one hides. */
  async findings(): Promise<DoctorFinding[]> {
    const [skills, prompts] = await Promise.all([this.skills(), this.prompts()]);
    // Folder and file names are the workspace's to choose: shown inert.
    const finding = (level: DoctorFinding['level'], message: string): DoctorFinding => ({ level, area: 'interop', message: visibleLine(message) });
    return [
      ...skills.problems.map((p) => finding('problem', `skill ${p.file}: ${p.message} (the skill is not used)`)),
      ...skills.shadowed.map((s) => finding('warning', `skill "${s.skill.name}" at ${s.skill.shownAs} is hidden by ${s.by.shownAs}`)),
      ...prompts.shadowed.map((s) => finding('warning', `prompt ${s.prompt.shownAs} is hidden by ${s.by}`)),
    ];
  }

  /** `/name args` → the prompt's text with its arguments; anything else stays as typed. */
  async expand(text: string): Promise<Expansion> {
    return expandPrompt(text, await this.prompts());
  }
}
