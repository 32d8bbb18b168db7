import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSTRUCTION_FILE_CHARS, INSTRUCTION_TOTAL_CHARS, instructionSelection, instructionsMessage, selects, TurnInstructions, type InstructionSelection } from '../../../src/core/interop/instructions.js';
import { ALL_INSTRUCTION_FILES, FixtureRepo } from './fixture.js';

describe('project instruction files (issue 24)', () => {
  let repo: FixtureRepo;
  afterEach(() => repo?.cleanup());

  const names = (files: { name: string }[]) => files.map((f) => f.name);

  it('reads every kind in the documented order, AGENTS.md from the root down to the working folder, nearest last', async () => {
    repo = new FixtureRepo(ALL_INSTRUCTION_FILES);
    const atRoot = await new TurnInstructions(repo.dir, 'all').atStart(repo.dir);
    assert.deepEqual(names(atRoot), ['CLAUDE.md', '.github/copilot-instructions.md', '.clinerules/01-style.md', '.clinerules/02-tests.md', '.cursor/rules/always.mdc', 'AGENTS.md']);
    // Front matter of Cline and Cursor rules is left out; Cursor rules not marked alwaysApply are not used.
    assert.equal(atRoot.find((f) => f.name === '.clinerules/01-style.md')!.text, 'cline one: two spaces');
    assert.equal(atRoot.find((f) => f.name === '.cursor/rules/always.mdc')!.text, 'cursor always: no default exports');

    const inDeep = await new TurnInstructions(repo.dir, 'all').atStart(repo.path('pkg/deep'));
    assert.deepEqual(names(inDeep).slice(-3), ['AGENTS.md', 'pkg/AGENTS.md', 'pkg/deep/AGENTS.md']);
  });

  it('a file read in a sub folder adds that folder’s AGENTS.md (and those above it) once', async () => {
    repo = new FixtureRepo(ALL_INSTRUCTION_FILES);
    const turn = new TurnInstructions(repo.dir, 'all');
    await turn.atStart(repo.dir);
    assert.deepEqual(names(await turn.forFile(repo.path('pkg/deep/code.ts'))), ['pkg/AGENTS.md', 'pkg/deep/AGENTS.md']);
    assert.deepEqual(await turn.forFile(repo.path('pkg/readme.txt')), [], 'given already');
    assert.deepEqual(await turn.forFile('/etc/hostname'), [], 'nothing from outside the root');
  });

  it('.clinerules may be a single file', async () => {
    repo = new FixtureRepo({ '.clinerules': 'cline as a file' });
    assert.deepEqual(names(await new TurnInstructions(repo.dir, 'all').atStart(repo.dir)), ['.clinerules']);
  });

  it('cuts a long file at the per-file cap, and the rest at the total cap, with a marker; what does not fit is named', async () => {
    const big = (c: string) => c.repeat(INSTRUCTION_FILE_CHARS + 500);
    repo = new FixtureRepo({ 'CLAUDE.md': big('c'), '.github/copilot-instructions.md': big('g'), '.clinerules': 'small rule', 'AGENTS.md': big('a') });
    const turn = new TurnInstructions(repo.dir, 'all');
    const files = await turn.atStart(repo.dir);
    assert.equal(files[0]!.cut, true);
    assert.match(files[0]!.text, /\[… cut here: CLAUDE\.md is longer than 16000 characters; the rest is left out\]$/);
    assert.equal(files[0]!.text.split('\n[')[0]!.length, INSTRUCTION_FILE_CHARS);
    const total = files.reduce((n, f) => n + f.text.split('\n[')[0]!.length, 0);
    assert.equal(total, INSTRUCTION_TOTAL_CHARS);
    // In the documented order until the total is spent; the rest is named, not silently dropped.
    assert.deepEqual(names(files), ['CLAUDE.md', '.github/copilot-instructions.md']);
    assert.deepEqual(turn.leftOut, ['.clinerules', 'AGENTS.md']);
    assert.match(instructionsMessage(files, turn.leftOut)!, /\[left out, over the instruction files' total cap: /);
  });

  it('`instructions` selects by name or glob, a folder selects its files, false/"off" turns them off; an agent overrides its project', async () => {
    repo = new FixtureRepo(ALL_INSTRUCTION_FILES);
    const pick = async (sel: InstructionSelection) => names(await new TurnInstructions(repo.dir, sel).atStart(repo.path('pkg')));
    assert.deepEqual(await pick(['AGENTS.md']), ['AGENTS.md', 'pkg/AGENTS.md']);
    assert.deepEqual(await pick(['.clinerules']), ['.clinerules/01-style.md', '.clinerules/02-tests.md']);
    assert.deepEqual(await pick(['.cursor/rules/*.mdc', 'CLAUDE.md']), ['CLAUDE.md', '.cursor/rules/always.mdc']);
    assert.deepEqual(await pick('none'), []);
    assert.ok(selects('**/AGENTS.md', 'pkg/deep/AGENTS.md'));
    assert.ok(!selects('AGENTS.md', 'CLAUDE.md'));

    const config = { projects: { web: { instructions: ['CLAUDE.md'] } } };
    assert.deepEqual(instructionSelection({ project: 'web' }, config), ['CLAUDE.md']);
    assert.equal(instructionSelection({ project: 'web', instructions: false }, config), 'none');
    assert.equal(instructionSelection({ instructions: 'off' }, {}), 'none');
    assert.equal(instructionSelection({}, {}), 'all');
  });

  it('attack: an instruction file that links outside the repository, or is a FIFO, is not read', async () => {
    // New reader (issue 24): against bfd1589 no instruction file was read at all; these pin that
    // the reader never follows a repository's link to the person's files, nor waits on a pipe.
    const outside = mkdtempSync(join(tmpdir(), 'pepe-outside-'));
    try {
      writeFileSync(join(outside, 'id_rsa'), 'PRIVATE KEY MATERIAL');
      repo = new FixtureRepo({ 'pkg/x.txt': 'x' });
      symlinkSync(join(outside, 'id_rsa'), repo.path('AGENTS.md'));
      symlinkSync(outside, repo.path('.cursor'));
      execFileSync('mkfifo', [repo.path('CLAUDE.md')]);
      execFileSync('mkfifo', [repo.path('pkg/AGENTS.md')]);
      const turn = new TurnInstructions(repo.dir, 'all');
      assert.deepEqual(await turn.atStart(repo.path('pkg')), []);
      assert.deepEqual(await turn.forFile(repo.path('pkg/x.txt')), []);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
