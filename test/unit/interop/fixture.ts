import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throwaway repository on disk: `files` maps relative paths to their text (a `.git` folder marks its root). */
export class FixtureRepo {
  readonly dir = mkdtempSync(join(tmpdir(), 'pepe-interop-'));

  constructor(files: Record<string, string> = {}) {
    mkdirSync(join(this.dir, '.git'));
    this.write(files);
  }

  write(files: Record<string, string>): void {
    for (const [rel, text] of Object.entries(files)) {
      const path = join(this.dir, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }

  path(rel: string): string {
    return join(this.dir, rel);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Every file kind of issue 24's instructions, in each place it is read from. */
export const ALL_INSTRUCTION_FILES: Record<string, string> = {
  'CLAUDE.md': 'claude: run the tests with npm test',
  '.github/copilot-instructions.md': 'copilot: prefer small functions',
  '.clinerules/01-style.md': '---\npaths: ["src/**"]\n---\ncline one: two spaces',
  '.clinerules/02-tests.md': 'cline two: tests next to code',
  '.clinerules/notes.json': '{"not": "a rule"}',
  '.cursor/rules/always.mdc': '---\ndescription: always\nalwaysApply: true\n---\ncursor always: no default exports',
  '.cursor/rules/by-glob.mdc': '---\nglobs: "*.ts"\nalwaysApply: false\n---\ncursor glob rule',
  'AGENTS.md': 'agents root: this is the root file',
  'pkg/AGENTS.md': 'agents pkg: the package file',
  'pkg/deep/AGENTS.md': 'agents deep: the deepest file',
  'pkg/deep/code.ts': 'export const x = 1;\n',
  'pkg/readme.txt': 'hello from pkg\n',
};
