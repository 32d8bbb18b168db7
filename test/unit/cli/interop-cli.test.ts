import assert from 'node:assert/strict';
import { execa } from 'execa';
import { script } from '../helpers/agents.js';
import { CLI, ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';
import { FixtureRepo } from '../interop/fixture.js';

describe('pepe run / chat with the files people bring: --verbose, --untrusted, /name prompts (issue 24)', function () {
  this.timeout(60_000);
  let home: TempHome;
  let repo: FixtureRepo;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
    repo = new FixtureRepo({
      'AGENTS.md': 'AGENTS-ROOT-TEXT',
      'CLAUDE.md': 'CLAUDE-TEXT',
      'sub/AGENTS.md': 'AGENTS-SUB-TEXT',
      '.pepe/prompts/review.md': '---\ndescription: Review one file\n---\nReview $1 with care ($ARGUMENTS).',
    });
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ echo_prompt: true }, { echo_prompt: true }, { echo_prompt: true }]) } } });
  });
  afterEach(() => {
    home.cleanup();
    repo.cleanup();
  });
  const inRepo = (args: string[], cwd = repo.dir) => pepeCli(home.dir, args, {}, cwd);

  it('run gives the model the instruction files from the root down to the working folder; --verbose names them on stderr', async () => {
    const quiet = await inRepo(['run', 'a', 'hi']);
    assert.equal(quiet.exitCode, 0, quiet.stderr);
    assert.match(quiet.stdout, /CLAUDE-TEXT[\s\S]*AGENTS-ROOT-TEXT/);
    assert.doesNotMatch(quiet.stderr, /using/);
    const verbose = await inRepo(['run', 'a', 'hi', '--verbose'], repo.path('sub'));
    assert.equal(verbose.exitCode, 0, verbose.stderr);
    assert.match(verbose.stdout, /AGENTS-ROOT-TEXT[\s\S]*AGENTS-SUB-TEXT/, 'nearest last');
    assert.match(verbose.stderr, /using CLAUDE\.md, AGENTS\.md, sub\/AGENTS\.md/);
    const before = await inRepo(['--verbose', 'run', 'a', 'hi']);
    assert.match(before.stderr, /using CLAUDE\.md, AGENTS\.md\n/, 'the global option, before the command');
  });

  it('--untrusted (global, or on run) leaves every workspace file out', async () => {
    for (const args of [['--untrusted', 'run', 'a', 'hi', '--verbose'], ['run', '--untrusted', 'a', 'hi']]) {
      const r = await inRepo(args);
      assert.equal(r.exitCode, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /AGENTS-ROOT-TEXT|CLAUDE-TEXT/, args.join(' '));
      assert.doesNotMatch(r.stderr, /using/);
    }
    const prompt = await inRepo(['--untrusted', 'run', 'a', '/review x.ts']);
    assert.match(prompt.stdout, /user: \/review x\.ts/, 'no workspace prompt either: sent as typed');
  });

  it('run expands /name args from a prompt file; an unknown /word is sent as typed', async () => {
    const r = await inRepo(['run', 'a', '/review src/app.ts now', '--verbose']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /user: Review src\/app\.ts with care \(src\/app\.ts now\)\.$/);
    assert.match(r.stderr, /using the prompt \/review \(\.pepe\/prompts\/review\.md\)/);
    const unknown = await inRepo(['run', 'a', '/tmp is full']);
    assert.match(unknown.stdout, /user: \/tmp is full$/);
    repo.write({ '.pepe/prompts/review.md': '---\ndescription: [broken\n---\nReview' });
    const broken = await inRepo(['run', 'a', '/review x.ts']);
    assert.equal(broken.exitCode, 2, 'a prompt that cannot be used is a usage error; nothing is sent');
    assert.match(broken.stderr, /pepe: \.pepe\/prompts\/review\.md: line \d+: the front matter is not valid YAML/);
    assert.equal(broken.stdout, '');
  });

  it('chat: /help lists the prompt files; /name args expands', async () => {
    const r = await execa('node', [CLI, 'chat', 'a'], {
      cwd: repo.dir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home.dir },
      extendEnv: false,
      reject: false,
      input: '/help\n/review lib.ts\n',
      timeout: 60_000,
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /\/help \(commands and prompts\)/);
    assert.match(r.stdout, /prompts:\n {2}\/review — Review one file \(\.pepe\/prompts\/review\.md\)/);
    assert.match(r.stdout, /user: Review lib\.ts with care \(lib\.ts\)\./);
  });
});
