import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, pepeCli, ROOT } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

const EXAMPLE = join(ROOT, 'docs/examples/plugins/example_memory.mjs');

describe('pepe CLI: slots, plugins, doctor (spec 9.1)', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const run = (...args: string[]) => pepeCli(home.dir, args);
  const json = async (...args: string[]) => {
    const r = await run(...args);
    assert.ok([0, 1].includes(r.exitCode), `${args.join(' ')} → ${r.exitCode}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  it('the seed example: install example_memory, pin it, test it, remove it, see the default instead', async () => {
    let r = await run('plugin', 'install', EXAMPLE);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /installed example_memory \(claims memory\)/);

    r = await run('slot', 'set', 'memory', 'example_memory');
    assert.equal(r.exitCode, 0, r.stderr);
    const memory = (await json('slot', 'list', '--json')).find((s: { slot: string }) => s.slot === 'memory');
    assert.deepEqual(memory, {
      slot: 'memory', configured: 'example_memory', occupant: 'example_memory', status: 'ok', reason: null, scope: 'install', default: 'builtin',
      fallbacks: { count: 0, lastReason: null, lastAt: null, recovered: false, recoveredAt: null }, uses: null,
    });

    const test = await json('slot', 'test', 'memory', '--query', 'anything');
    assert.equal(test.slot, 'memory');
    assert.equal(test.occupant, 'example_memory');
    assert.equal(test.answeredBy, 'example_memory');
    assert.equal(test.fallback, null);
    assert.deepEqual(test.result, []);
    assert.equal(typeof test.durationMs, 'number');

    rmSync(join(home.plugins, 'example_memory.mjs'));
    const after = (await json('slot', 'list', '--json')).find((s: { slot: string }) => s.slot === 'memory');
    assert.equal(after.status, 'default-instead');
    assert.equal(after.occupant, 'builtin');
    assert.match(after.reason, /"example_memory" is not installed/);
    r = await run('slot', 'list');
    assert.match(r.stdout, /memory: using the default instead: plugin "example_memory" is not installed/);

    r = await run('doctor');
    assert.equal(r.exitCode, 1);
    assert.match(r.stdout, /memory .*using the default instead: plugin "example_memory" is not installed/);
    const report = await json('doctor', '--json');
    assert.equal(report.healthy, false);
  });

  it('slot set refuses an unknown slot, a missing plugin and a plugin of another slot, naming those that fit', async () => {
    await run('plugin', 'install', EXAMPLE);
    let r = await run('slot', 'set', 'memroy', 'example_memory');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /unknown slot "memroy"; the slots are: memory, web_search/);
    r = await run('slot', 'set', 'memory', 'nope');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /no installed plugin is named "nope"; plugins that claim memory: example_memory/);
    r = await run('slot', 'set', 'web_search', 'example_memory');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /claims slot "memory", not "web_search"; no installed plugin claims web_search/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.throws(() => readFileSync(home.config), /ENOENT/, 'nothing was written');
  });

  it('per-agent and per-project pins, and clear', async () => {
    await run('plugin', 'install', EXAMPLE);
    assert.equal((await run('agent', 'add', 'support', '--model', 'mock', '--slots', 'memory:example_memory', '--project', 'acme')).exitCode, 0);
    assert.equal((await run('agent', 'add', 'other', '--model', 'mock')).exitCode, 0);
    const forSupport = (await json('slot', 'list', '--agent', 'support', '--json'))[0];
    assert.deepEqual([forSupport.occupant, forSupport.scope], ['example_memory', 'agent']);
    const forOther = (await json('slot', 'list', '--agent', 'other', '--json'))[0];
    assert.deepEqual([forOther.occupant, forOther.scope], ['builtin', null]);

    assert.equal((await run('slot', 'set', 'memory', 'example_memory', '--project', 'acme')).exitCode, 0);
    assert.equal((await run('slot', 'clear', 'memory', '--agent', 'support')).exitCode, 0);
    const viaProject = (await json('slot', 'list', '--agent', 'support', '--json'))[0];
    assert.deepEqual([viaProject.occupant, viaProject.scope], ['example_memory', 'project']);
    const config = JSON.parse(readFileSync(home.config, 'utf8'));
    assert.deepEqual(config.projects, { acme: { default_slots: { memory: 'example_memory' } } });
    assert.equal(config.agents.support.slots, undefined, 'clear leaves no empty object behind');

    const r = await run('slot', 'set', 'memory', 'example_memory', '--agent', 'ghost');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /unknown agent "ghost"/);
    assert.equal((await run('slot', 'set', 'memory', 'example_memory', '--agent', 'a', '--project', 'p')).exitCode, 2);
  });

  it('plugin list and remove; installing a file that does not load installs nothing', async () => {
    await run('plugin', 'install', EXAMPLE);
    const list = await json('plugin', 'list', '--json');
    assert.deepEqual(list.map((p: { name: string; slot: string; file: string }) => [p.name, p.slot, p.file]), [['example_memory', 'memory', 'example_memory.mjs']]);
    const bad = home.writePlugin('../bad.mjs', 'export const nothing = 1;');
    let r = await run('plugin', 'install', bad);
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /not installed: bad.mjs failed to load: does not export name\(\) and slot\(\)/);
    assert.equal((await json('plugin', 'list', '--json')).length, 1);
    r = await run('plugin', 'remove', 'example_memory');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual(await json('plugin', 'list', '--json'), []);
    assert.equal((await run('plugin', 'remove', 'example_memory')).exitCode, 2);
  });

  it('doctor reports unknown keys, unknown route targets, failing plugin files and unknown overrides', async () => {
    home.writeConfig({
      surprise: 1,
      agents: { triage: { model: 'mock', can_message: ['billing'], slots: { web_search: 'ghost' } } },
    });
    home.writePlugin('broken.mjs', 'export function (');
    const report = await json('doctor', '--json');
    const messages: string[] = report.findings.map((f: { message: string }) => f.message);
    assert.ok(messages.some((m) => /unknown key "surprise"/.test(m)), messages.join('\n'));
    assert.ok(messages.some((m) => /route triage → billing names an unknown agent "billing"/.test(m)), 'messages.some((m) => /route triage → billing names an unknown agent "billing"/.test(m))');
    assert.ok(messages.some((m) => /plugin file broken.mjs: failed to load/.test(m)), 'messages.some((m) => /plugin file broken.mjs: failed to load/.test(m))');
    assert.ok(messages.some((m) => /web_search \(agent triage.*"ghost" is not installed/.test(m)), 'messages.some((m) => /web_search \\(agent triage.*"ghost" is not installed/.test(m))');
    assert.equal((await run('doctor')).exitCode, 1);
  });

  it('doctor exits 0 on a healthy install', async () => {
    const r = await run('doctor');
    assert.equal(r.exitCode, 0, r.stdout + r.stderr);
  });

  it('usage mistakes exit 2 with one line on stderr', async () => {
    for (const args of [['slot', 'frob'], ['slot', 'list', '--bogus'], ['agent', 'add'], ['slot', 'test', 'memory']]) {
      const r = await run(...args);
      assert.equal(r.exitCode, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.ok(r.stderr.length > 0, 'r.stderr.length > 0');
      assert.ok(!/\n\s+at /.test(r.stderr), 'no stack trace');
    }
  });
});
