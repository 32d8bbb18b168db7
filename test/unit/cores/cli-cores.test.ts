import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { TempHome } from '../helpers/home.js';
import { cleanup, pipelines, scaffolded, slot, write } from './helpers.js';

const ROOT = join(import.meta.dirname, '../../..');
const UPSTREAM = join(ROOT, 'test/fixtures/cores/upstream');

/** The CLI from its sources (the same commands the bundle runs), with `home` as PEPE_HOME. */
async function pepe(home: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = `import { main } from ${JSON.stringify(join(ROOT, 'src/cli/main.ts'))}; process.exitCode = await main(${JSON.stringify(args)});`;
  const tsx = import.meta.resolve('tsx');
  const r = await execa('node', ['--import', tsx, '--input-type=module', '--eval', script], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  return { code: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('agent cores: the CLI (init --check, doctor, agent add --core)', function () {
  this.timeout(120_000);
  let home: TempHome;
  beforeEach(() => (home = new TempHome()));
  afterEach(() => {
    home.cleanup();
    cleanup();
  });

  it("upstream's real manifests (assistant, evolver, the package repository) pass pepe init --check", async () => {
    const cores = readdirSync(UPSTREAM, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    assert.deepEqual(cores, ['assistant', 'context-reseed-output', 'evolver', 'package-repository', 'tts_summarizer']);
    for (const core of cores) {
      const r = await pepe(home.dir, ['init', '--check', join(UPSTREAM, core)]);
      assert.equal(r.code, 0, `${core}: ${r.stderr}`);
      assert.match(r.stdout, /the agent core is valid/);
    }
    const repo = await pepe(home.dir, ['init', '--check', join(UPSTREAM, 'package-repository')]);
    assert.match(repo.stdout, /note: .*skipped output\/tts_gemini\/: no slot\.yaml/);
  });

  it('pepe init --check without a folder and pepe doctor check every configured agent\'s core', async () => {
    const good = scaffolded();
    const broken = scaffolded();
    write(broken, 'agent/input/base_input/slot.yaml', 'entrypoint: module:process\ncapabilities: [netwrk.fetch]\n');
    home.writeConfig({ agents: { fine: { model: 'mock', core: good }, bad: { model: 'mock', core: broken }, gone: { model: 'mock', core: 'no-such-core' } } });
    const r = await pepe(home.dir, ['init', '--check']);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /agent fine .*: the agent core is valid/);
    assert.match(r.stderr, /agent\/input\/base_input\/slot\.yaml:2:\d+: unknown capability "netwrk\.fetch"; did you mean "network\.fetch"/);
    assert.match(r.stderr, /no agent core here/);
    const doctor = await pepe(home.dir, ['doctor']);
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout, /problem \[core\] agent bad: core agent\/input\/base_input\/slot\.yaml/);
    assert.match(doctor.stdout, /problem \[core\] agent gone: core .*no agent core here/);
    assert.doesNotMatch(doctor.stdout, /agent fine/);
  });

  it('pepe agent add NAME --core DIR attaches a checked core; a broken one is refused and nothing changes', async () => {
    home.writeConfig({ agents: {} });
    const core = scaffolded();
    const added = await pepe(home.dir, ['agent', 'add', 'helper', '--model', 'mock', '--core', core]);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(JSON.parse(readFileSync(home.config, 'utf8')).agents.helper.core, core);
    const run = await pepe(home.dir, ['run', 'helper', 'hi', '--json']);
    assert.equal(run.code, 0, run.stderr);

    const broken = scaffolded();
    write(broken, 'agent/pipelines.yaml', 'schema_version: 2\n');
    const refused = await pepe(home.dir, ['agent', 'add', 'other', '--model', 'mock', '--core', broken]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /schema_version must be 1/);
    assert.equal(JSON.parse(readFileSync(home.config, 'utf8')).agents.other, undefined);
  });

  it('soft slot failures, notices and progress show in pepe run and go to the log with the module file and line', async () => {
    const core = scaffolded();
    slot(core, 'input', 'flaky', { module: "export function process(ctx: any) {\n  ctx.input.notice('looking around');\n  throw new Error('flaky broke');\n}\n" });
    slot(core, 'output', 'chatty', { module: "export function process(ctx: any) {\n  ctx.output.progress('halfway');\n  ctx.output.notice('all done');\n  ctx.output.sendText(ctx.output.responseText);\n}\n" });
    pipelines(core, { input: ['flaky', 'base_input'], output: ['chatty'] });
    home.writeConfig({ agents: { a: { model: 'mock', core } } });
    const r = await pepe(home.dir, ['run', 'a', 'hello']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /You said: hello/);
    assert.match(r.stderr, /⚠ input slot "flaky" failed \(soft, the turn goes on\): flaky broke \(.*agent\/input\/flaky\/module\.ts:3\)/);
    assert.match(r.stderr, /… chatty: halfway/);
    assert.match(r.stderr, /ℹ chatty: all done/);
    const log = readFileSync(join(home.dir, 'logs/pepe.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const failed = log.find((l) => l.message === 'core_slot_failed');
    assert.ok(failed, 'the soft failure is in the log');
    assert.equal(failed.slotId, 'flaky');
    assert.match(failed.file, /agent\/input\/flaky\/module\.ts$/);
    assert.equal(failed.line, 3);
    assert.equal(failed.detail, 'flaky broke');
    assert.ok(log.some((l) => l.message === 'core_notice' && l.text === 'all done'));
  });
});
