import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseFrontMatter } from '../../../src/core/interop/front-matter.js';
import { script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/** Agents as Markdown files: where they come from, their problems as FILE:LINE, conflicts, other tools' files. */
describe('agent files', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const put = (root: string, rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };

  it('front matter lines are counted from 1 with the opening --- as line 1', () => {
    const text = '---\ndescription: ok\ntools: [read_file\n---\nbody\n';
    const fm = parseFrontMatter('/x/a.md', text);
    assert.equal(fm.data, null);
    assert.ok(fm.problems.length > 0);
    assert.ok(fm.problems.every((p) => p.line >= 3), JSON.stringify(fm.problems));
    const unclosed = parseFrontMatter('/x/b.md', '---\ndescription: x\n');
    assert.match(unclosed.problems[0]!.message, /never closed/);
  });

  it('a malformed front matter is reported as FILE:LINE by agent list and the run, and the agent does not load', async () => {
    put(home.workspace, '.pepe/agents/broken.md', '---\ndescription: fine\nmodel: mock\ncolour: red\ntools: read_file\n---\nYou are broken.\n');
    const pepe = await home.pepe({ workspace: home.workspace });
    const problems = pepe.interopProblems();
    assert.ok(problems.includes('.pepe/agents/broken.md:4:1: unknown field "colour"; an agent file knows: name, description, model, model_chain, tools, can_message, slots, mcp, project, auto_approve, trust_untrusted_content'), problems.join('\n'));
    assert.ok(problems.some((p) => p.startsWith('.pepe/agents/broken.md:5:')), problems.join('\n'));
    const row = pepe.agentList().find((a) => a.name === 'broken')!;
    assert.equal(row.status, 'invalid');
    await pepe.trustAccept('broken');
    await assert.rejects(pepe.run({ agent: 'broken', text: 'hi' }), /broken\.md has problems and does not load:\n {2}\.pepe\/agents\/broken\.md:4:1: unknown field "colour"/);
    const doctor = await pepe.doctor();
    assert.ok(doctor.some((f) => f.level === 'problem' && f.message.startsWith('.pepe/agents/broken.md:4:1')), JSON.stringify(doctor));
  });

  it('conflicting names: config.json wins over $PEPE_HOME/agents, which wins over the workspace; the losers are reported', async () => {
    home.writeConfig({ agents: { coder: { model: 'mock' } } });
    put(home.dir, 'agents/coder.md', '---\ndescription: home coder\n---\nHome.\n');
    put(home.dir, 'agents/reviewer.md', '---\ndescription: my reviewer\nmodel: mock\n---\nPersonal reviewer.\n');
    put(home.workspace, '.pepe/agents/reviewer.md', '---\ndescription: project reviewer\nmodel: mock\n---\nProject reviewer.\n');
    put(home.workspace, '.pepe/agents/tester.md', '---\ndescription: project tester\nmodel: mock\n---\nProject tester.\n');
    // Personal agent folders (memory) beside the files are fine.
    mkdirSync(join(home.dir, 'agents', 'reviewer'), { recursive: true });
    const pepe = await home.pepe({ workspace: home.workspace });
    const rows = pepe.agentList().map((a) => `${a.name} ${a.source} ${a.status}`);
    assert.deepEqual(rows, [
      'coder config.json loaded',
      'coder $PEPE_HOME/agents/coder.md shadowed',
      'reviewer $PEPE_HOME/agents/reviewer.md loaded',
      'reviewer .pepe/agents/reviewer.md shadowed',
      'tester .pepe/agents/tester.md awaiting',
    ]);
    assert.equal(pepe.config.agents!.reviewer!.system_prompt, 'Personal reviewer.');
    assert.equal(pepe.config.agents!.tester, undefined, 'a workspace agent does not apply before it is accepted');
    const problems = pepe.interopProblems();
    assert.ok(problems.some((p) => /agent "coder" in \$PEPE_HOME\/agents\/coder\.md is not used: config\.json defines the same name/.test(p)), problems.join('\n'));
    assert.ok(problems.some((p) => /agent "reviewer" in \.pepe\/agents\/reviewer\.md is not used: \$PEPE_HOME\/agents\/reviewer\.md/.test(p)), problems.join('\n'));
    await assert.rejects(pepe.run({ agent: 'tester', text: 'hi' }), /comes from \.pepe\/agents\/tester\.md, which awaits acceptance: review it, then run pepe trust accept tester/);
  });

  it('a personal file runs as is (the body is the system prompt); export writes it back', async () => {
    const model = script(home, 'p', [{ text: 'hello from a file' }]);
    put(home.dir, 'agents/helper.md', `---\ndescription: helps\nmodel: ${model}\ntools: [read_file]\ncan_message: [other]\n---\nYou help.\n`);
    const pepe = await home.pepe({ workspace: home.workspace });
    const r = await pepe.run({ agent: 'helper', text: 'hi' });
    assert.equal(r.status, 'ok', r.error);
    assert.equal(r.content, 'hello from a file');
    const text = pepe.agentExport('helper');
    assert.equal(text, `---\nname: helper\ndescription: helps\nmodel: ${model}\ntools:\n  - read_file\ncan_message:\n  - other\n---\nYou help.\n`);
    // What export writes reads back as the same agent.
    put(home.dir, 'agents/copy.md', text.replace('name: helper', 'name: copy'));
    await pepe.reload();
    const { system_prompt, tools, can_message } = pepe.config.agents!.copy!;
    assert.deepEqual({ system_prompt, tools, can_message }, { system_prompt: 'You help.', tools: ['read_file'], can_message: ['other'] });
  });

  it("VS Code's and Claude Code's agent files: fields mapped, the rest reported as warnings, permission modes never grant", async () => {
    home.writeConfig({ models: { fast: { provider: 'mock', model: 'mock' } } });
    put(home.workspace, '.github/agents/planner.agent.md', '---\ndescription: Plans\ntools: [codebase, editFiles, fetch, github/*]\nmodel: Claude Sonnet 4\nhandoffs: []\n---\nPlan things.\n');
    put(home.workspace, '.claude/agents/code-reviewer.md', '---\nname: code-reviewer\ndescription: Reviews\ntools: Read, Grep, Bash, mcp__gh__list\nmodel: fast\npermissionMode: bypassPermissions\n---\nReview.\n');
    const pepe = await home.pepe({ workspace: home.workspace });
    await pepe.trustAccept({ all: true });
    const planner = pepe.config.agents!.planner!;
    assert.deepEqual({ tools: planner.tools, mcp: planner.mcp, model: planner.model, prompt: planner.system_prompt }, { tools: ['edit_file', 'list_dir', 'read_file', 'write_file'], mcp: ['github'], model: undefined, prompt: 'Plan things.' });
    const reviewer = pepe.config.agents!['code-reviewer']!;
    assert.deepEqual({ tools: reviewer.tools, mcp: reviewer.mcp, model: reviewer.model, auto: reviewer.auto_approve }, { tools: ['bash', 'read_file'], mcp: ['mcp__gh__list'], model: 'fast', auto: undefined });
    const warnings = pepe.interopProblems().filter((p) => p.startsWith('warning: '));
    assert.ok(warnings.some((w) => /planner\.agent\.md:3:1: VS Code tools with no counterpart here are left out: fetch/.test(w)), warnings.join('\n'));
    assert.ok(warnings.some((w) => /planner\.agent\.md:4:1: model "Claude Sonnet 4" is not a model configured in Pepe/.test(w)), warnings.join('\n'));
    assert.ok(warnings.some((w) => /code-reviewer\.md:6:1: the Claude Code field "permissionMode" has no meaning in Pepe and is ignored/.test(w)), warnings.join('\n'));
    assert.ok(warnings.some((w) => /Claude Code tools with no counterpart here are left out: Grep/.test(w)), warnings.join('\n'));
  });

  it('agent export -o refuses to overwrite a file', async () => {
    home.writeConfig({ agents: { a: { model: 'mock', system_prompt: 'Hi.' } } });
    const { pepeCli, ensureBuilt } = await import('../helpers/cli.js');
    ensureBuilt();
    const out = join(home.workspace, 'a.md');
    let r = await pepeCli(home.dir, ['agent', 'export', 'a', '-o', out], {}, home.workspace);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(readFileSync(out, 'utf8'), '---\nname: a\nmodel: mock\n---\nHi.\n');
    r = await pepeCli(home.dir, ['agent', 'export', 'a', '-o', out], {}, home.workspace);
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /exists; nothing was written/);
  });
});
