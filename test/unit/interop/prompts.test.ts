import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argumentWords, discoverPrompts, expandPrompt, fillPlaceholders, promptLines, slashCommand } from '../../../src/core/interop/prompts.js';
import { FixtureRepo } from './fixture.js';

describe('prompt files as /name commands (issue 24)', () => {
  let repo: FixtureRepo;
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'pepe-home-'));
  });
  afterEach(() => {
    repo?.cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  it('fills $ARGUMENTS and $1…$9 in one pass; quoted words count as one; no placeholder: the arguments follow the text', () => {
    assert.deepEqual(argumentWords(`src/a.ts "two words" 'three more' x`), ['src/a.ts', 'two words', 'three more', 'x']);
    assert.equal(fillPlaceholders('Review $1 for $2. All: $ARGUMENTS. Missing: [$3]', 'a.ts "style issues"'), 'Review a.ts for style issues. All: a.ts "style issues". Missing: []');
    // What is put in is never expanded again.
    assert.equal(fillPlaceholders('Say $1', '$ARGUMENTS'), 'Say $ARGUMENTS');
    assert.equal(fillPlaceholders('Summarise the changes.', 'in French'), 'Summarise the changes.\n\nin French');
    assert.equal(fillPlaceholders('Summarise the changes.', ''), 'Summarise the changes.');
    assert.deepEqual(slashCommand('  /review  src/a.ts  '), { name: 'review', args: 'src/a.ts' });
    assert.equal(slashCommand('/usr/bin is full'), null);
    assert.equal(slashCommand('please /review'), null);
  });

  it('finds .pepe/prompts, .github/prompts/*.prompt.md and $PEPE_HOME/prompts; the person’s own wins a name; built-in commands win over all', async () => {
    repo = new FixtureRepo({
      '.pepe/prompts/review.md': '---\ndescription: Review a file\n---\nReview $1 carefully.',
      '.pepe/prompts/agent.md': 'never used: /agent is the chat’s own',
      '.github/prompts/explain.prompt.md': '---\ndescription: Explain code\nmode: agent\ntools: [bash]\n---\nExplain $ARGUMENTS simply.',
      '.github/prompts/ignored.md': 'not a .prompt.md file',
      '.pepe/prompts/mine.md': 'workspace version',
    });
    mkdirSync(join(home, 'prompts'));
    writeFileSync(join(home, 'prompts', 'mine.md'), 'my version: $ARGUMENTS');
    const catalog = await discoverPrompts({ home, root: repo.dir });
    assert.deepEqual(catalog.prompts.map((p) => `${p.name}@${p.shownAs}`), ['mine@$PEPE_HOME/prompts/mine.md', 'review@.pepe/prompts/review.md', 'explain@.github/prompts/explain.prompt.md']);
    assert.deepEqual(catalog.shadowed.map((s) => `${s.prompt.shownAs} by ${s.by}`), ['.pepe/prompts/agent.md by the chat command /agent', '.pepe/prompts/mine.md by $PEPE_HOME/prompts/mine.md']);
    assert.deepEqual(promptLines(catalog), ['/mine ($PEPE_HOME/prompts/mine.md)', '/review — Review a file (.pepe/prompts/review.md)', '/explain — Explain code (.github/prompts/explain.prompt.md)']);

    const review = await expandPrompt('/review src/app.ts', catalog);
    assert.equal(review.kind === 'expanded' && review.text, 'Review src/app.ts carefully.');
    const explain = await expandPrompt('/explain the retry loop', catalog);
    assert.equal(explain.kind === 'expanded' && explain.text, 'Explain the retry loop simply.', 'front matter left out, VS Code’s fields ignored');
    const mine = await expandPrompt('/mine x y', catalog);
    assert.equal(mine.kind === 'expanded' && mine.text, 'my version: x y');
    assert.deepEqual(await expandPrompt('/nothing here', catalog), { kind: 'none' });
    assert.deepEqual(await expandPrompt('plain text', catalog), { kind: 'none' });
  });

  it('a prompt whose file went away or is broken is a clear error, not a silent send; a link out of the workspace is not a prompt', async () => {
    repo = new FixtureRepo({ '.pepe/prompts/gone.md': 'x', '.pepe/prompts/bad.md': '---\ndescription: [oops\n---\nbody', '.pepe/prompts/empty.md': '---\ndescription: nothing\n---\n' });
    const outside = mkdtempSync(join(tmpdir(), 'pepe-outside-'));
    try {
      writeFileSync(join(outside, 'secret.md'), 'SECRET');
      symlinkSync(join(outside, 'secret.md'), repo.path('.pepe/prompts/leak.md'));
      const catalog = await discoverPrompts({ home, root: repo.dir });
      assert.deepEqual(catalog.prompts.map((p) => p.name).sort(), ['bad', 'empty', 'gone']);
      rmSync(repo.path('.pepe/prompts/gone.md'));
      assert.match(JSON.stringify(await expandPrompt('/gone', catalog)), /can no longer be read/);
      assert.match(JSON.stringify(await expandPrompt('/bad', catalog)), /\.pepe\/prompts\/bad\.md: line \d+: the front matter is not valid YAML/);
      assert.match(JSON.stringify(await expandPrompt('/empty', catalog)), /is empty/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
