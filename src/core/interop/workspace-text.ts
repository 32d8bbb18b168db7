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

  /** `/name args` → the prompt's text with its arguments; anything else stays as typed. */
  async expand(text: string): Promise<Expansion> {
    return expandPrompt(text, await this.prompts());
  }
}
