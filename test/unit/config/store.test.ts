import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ConfigStore } from '../../../src/core/config/store.js';
import { ConfigError } from '../../../src/core/errors.js';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

describe('config store (spec 2)', () => {
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('an absent file means all defaults', async () => {
    const snap = await new ConfigStore(home.config).read();
    assert.deepEqual(snap, { exists: false, raw: {}, config: {}, unknown: [], setAside: [] });
  });

  it('a syntax error names the line and column and the file is never overwritten', async () => {
    const broken = '{\n  "slots": {\n    "memory": "x",\n  }\n}\n';
    home.writeConfig(broken);
    const store = new ConfigStore(home.config);
    await assert.rejects(store.read(), (e: unknown) => e instanceof ConfigError && /line 4, column 3/.test(e.message) && e.message.includes(home.config));
    await assert.rejects(store.update((raw) => { raw.slots = {}; }), ConfigError);
    assert.equal(readFileSync(home.config, 'utf8'), broken);
  });

  it('wrong types name the JSON path and the fix; only those sections are set aside', async () => {
    home.writeConfig({ agents: { triage: { model: 'mock', tools: 'bash' }, billing: { model: 'mock' } }, limits: { max_hops: -1, max_steps: 5 } });
    const snap = await new ConfigStore(home.config).read();
    const problems = snap.setAside.flatMap((s) => s.problems);
    assert.ok(problems.some((p) => p.startsWith('agents.triage.tools: expected an array; make it an array')), problems.join('\n'));
    assert.ok(problems.some((p) => p.startsWith('limits.max_hops:')), problems.join('\n'));
    assert.deepEqual(snap.setAside.map((s) => s.section).sort(), ['agents.triage.tools', 'limits']);
    // The rest keeps working: the agent without its broken field, the other agent untouched.
    assert.deepEqual(snap.config.agents, { triage: { model: 'mock' }, billing: { model: 'mock' } });
    assert.equal(snap.config.limits, undefined);
  });

  it('a malformed section takes its defaults and the rest applies; writes stay refused', async () => {
    const text = JSON.stringify({ slots: ['memory'], agents: { a: { model: 'mock' } } }, null, 2);
    home.writeConfig(text);
    const store = new ConfigStore(home.config);
    const snap = await store.read();
    assert.deepEqual(snap.setAside, [{ section: 'slots', problems: ['slots: expected an object; make it an object'] }]);
    assert.deepEqual(snap.config, { agents: { a: { model: 'mock' } } });
    await assert.rejects(store.update((raw) => { raw.default_model_chain = ['mock']; }), (e: unknown) => e instanceof ConfigError && /slots: expected an object/.test(e.message));
    assert.equal(readFileSync(home.config, 'utf8'), text);
  });

  it('a broken section that names the sandbox is never set aside: commands must not run elsewhere', async () => {
    home.writeConfig({ sandbox: { wrapper: 7 }, agents: { a: { model: 'mock' } } });
    await assert.rejects(new ConfigStore(home.config).read(), (e: unknown) => e instanceof ConfigError && /sandbox\.wrapper/.test(e.message));
    home.writeConfig({ slots: { sandbox: 'container', memroy: 'x' } });
    await assert.rejects(new ConfigStore(home.config).read(), (e: unknown) => e instanceof ConfigError && /slots/.test(e.message));
  });

  it('an unknown slot name sets the slots section aside, naming the key', async () => {
    home.writeConfig({ slots: { memroy: 'x' } });
    const snap = await new ConfigStore(home.config).read();
    assert.equal(snap.setAside[0]?.section, 'slots');
    assert.match(snap.setAside[0]!.problems.join(' '), /memroy/);
  });

  it('a top level that is not an object still refuses everything', async () => {
    home.writeConfig('[1, 2]');
    await assert.rejects(new ConfigStore(home.config).read(), ConfigError);
  });

  it('unknown keys are reported and survive a write', async () => {
    home.writeConfig({ future_feature: { on: true }, agents: { a: { model: 'mock', colour: 'green' } } });
    const store = new ConfigStore(home.config);
    assert.deepEqual((await store.read()).unknown, ['future_feature', 'agents.a.colour']);
    await store.update((raw) => {
      raw.slots = { memory: 'm' };
    });
    const written = JSON.parse(readFileSync(home.config, 'utf8'));
    assert.deepEqual(written.future_feature, { on: true });
    assert.equal(written.agents.a.colour, 'green');
    assert.deepEqual(written.slots, { memory: 'm' });
  });

  it('a change that would make the file invalid writes nothing', async () => {
    home.writeConfig({ agents: {} });
    const before = readFileSync(home.config, 'utf8');
    await assert.rejects(new ConfigStore(home.config).update((raw) => { raw.limits = { max_steps: 'lots' }; }), /Nothing was written/);
    assert.equal(readFileSync(home.config, 'utf8'), before);
  });

  it('concurrent updates in one process lose nothing', async () => {
    const store = new ConfigStore(home.config);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store.update((raw) => {
          const agents = (raw.agents ??= {}) as Record<string, unknown>;
          agents[`agent${i}`] = { model: 'mock' };
        }),
      ),
    );
    assert.equal(Object.keys((await store.read()).config.agents ?? {}).length, 40);
  });

  describe('through the CLI', function () {
    this.timeout(120_000);
    before(ensureBuilt);

    it('a corrupt config.json gives exit 2 with the path of the problem and stays byte-for-byte unchanged', async () => {
      const broken = '{"agents": {"a": {"model": "mock"}}, "slots": ';
      home.writeConfig(broken);
      for (const args of [['slot', 'list'], ['slot', 'set', 'memory', 'x'], ['agent', 'add', 'b'], ['doctor']]) {
        const r = await pepeCli(home.dir, args);
        assert.equal(r.exitCode, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.ok(r.stderr.includes(home.config), r.stderr);
        assert.equal(r.stderr.trim().split('\n').length, 1, 'one clear line');
        assert.equal(readFileSync(home.config, 'utf8'), broken);
      }
    });

    it('50 concurrent `pepe agent add` processes all end up in the file', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => pepeCli(home.dir, ['agent', 'add', `agent${i}`, '--model', 'mock'])));
      for (const r of results) assert.equal(r.exitCode, 0, r.stderr);
      const agents = Object.keys(JSON.parse(readFileSync(home.config, 'utf8')).agents);
      assert.equal(agents.length, 50);
    });
  });
});

describe('config errors quote the file inertly', () => {
  it('control and bidi characters from a damaged config.json never reach the message raw', async () => {
    const home = new TempHome();
    try {
      home.writeConfig('\u001b]0;owned\u0007\u202e{');
      await assert.rejects(new ConfigStore(home.config).read(), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.doesNotMatch(e.message, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
        assert.match(e.message, /\\x1b/);
        return true;
      });
    } finally {
      home.cleanup();
    }
  });
});
