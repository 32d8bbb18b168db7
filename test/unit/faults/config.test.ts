/**
 * Config faults through real `pepe` processes (issue 8): corrupt, truncated and wrongly typed
 * files are never overwritten; 100 concurrent writers lose nothing; a writer SIGKILLed in the
 * middle of its write (holding the lock) leaves the file whole, and the stale lock is taken over.
 */
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ensureBuilt } from '../helpers/cli.js';
import { PAUSE_WRITE, pepe } from './helpers.js';
import { record } from './report.js';

const base = { agents: { keep: { model: 'mock', colour: 'green' } }, future_feature: { on: true } };

describe('faults: config.json under damage and contention (issue 8)', function () {
  this.timeout(180_000);
  let home: string;
  before(ensureBuilt);
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'pepe-cfg-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));
  const config = () => join(home, 'config.json');

  const damaged: [string, string, RegExp][] = [
    ['corrupt file (JSON syntax error)', '{\n  "agents": {\n    "keep": { "model": "mock", },\n  }\n}\n', /line \d+, column \d+/],
    ['truncated file (cut mid-write by something else)', JSON.stringify(base, null, 2).slice(0, 37), /config\.json/],
    ['wrong types', JSON.stringify({ agents: { keep: { tools: 'bash' } }, limits: { max_hops: 'five' } }), /agents\.keep\.tools/],
    ['binary garbage', '\u0000\u0001\u0002PK\u0003\u0004', /config\.json/],
  ];
  for (const [name, text, wording] of damaged) {
    it(`${name}: every writing command stops with an actionable error; the file is never overwritten`, async () => {
      writeFileSync(config(), text);
      const t = performance.now();
      const runs = await Promise.all([
        pepe(home, ['agent', 'add', 'x', '--model', 'mock']),
        pepe(home, ['agent', 'route', 'keep', 'x']),
        pepe(home, ['slot', 'clear', 'memory']),
      ]);
      const ms = performance.now() - t;
      const after = readFileSync(config(), 'utf8');
      const ok = runs.every((r) => r.exitCode !== 0 && wording.test(r.stderr)) && after === text;
      record({
        area: 'config',
        case: name,
        expected: 'writers refuse with the path and the fix; file byte-for-byte unchanged',
        observed: `exit ${runs.map((r) => r.exitCode).join('/')}; "${runs[0]!.stderr.trim().split('\n')[0]!.slice(0, 110)}"; file ${after === text ? 'unchanged' : 'CHANGED'}`,
        passed: ok,
        ms,
      });
      assert.equal(after, text, 'the damaged file was overwritten');
      for (const r of runs) {
        assert.notEqual(r.exitCode, 0, `a writer succeeded on a damaged file: ${r.stdout}`);
        assert.match(r.stderr, wording);
      }
    });
  }

  const WRITERS = Number(process.env.PEPE_FAULT_WRITERS ?? 100);
  it(`${WRITERS} concurrent writer processes: every change lands, unknown keys survive, the file is valid`, async () => {
    writeFileSync(config(), JSON.stringify(base, null, 2));
    const t = performance.now();
    const runs = await Promise.all(Array.from({ length: WRITERS }, (_, i) => pepe(home, ['agent', 'add', `w${i}`, '--model', 'mock'], { timeoutMs: 120_000 })));
    const ms = performance.now() - t;
    const failed = runs.filter((r) => r.exitCode !== 0);
    const final = JSON.parse(readFileSync(config(), 'utf8'));
    const present = Array.from({ length: WRITERS }, (_, i) => `w${i}`).filter((n) => final.agents[n]);
    const ok = failed.length === 0 && present.length === WRITERS && final.agents.keep.colour === 'green' && final.future_feature?.on === true;
    record({
      area: 'config',
      case: `${WRITERS} concurrent \`pepe agent add\` processes`,
      expected: `all ${WRITERS} agents present; unknown keys kept; valid JSON`,
      observed: `${WRITERS - failed.length} exited 0; ${present.length}/${WRITERS} agents present; unknown keys ${final.future_feature?.on === true && final.agents.keep.colour === 'green' ? 'kept' : 'LOST'}`,
      passed: ok,
      ms,
    });
    assert.deepEqual(failed.map((r) => r.stderr.slice(0, 200)), [], 'writers failed');
    assert.equal(present.length, WRITERS, `lost writes: ${WRITERS - present.length}`);
    assert.equal(final.agents.keep.colour, 'green', 'unknown key lost');
    assert.equal(final.future_feature?.on, true, 'unknown top-level key lost');
  });

  for (const at of ['write', 'rename'] as const) {
    const where = at === 'write' ? 'half-way through writing the temp file' : 'after fsync, before the rename';
    it(`a writer SIGKILLed ${where} (holding the lock): file whole, stale lock taken over, no later write lost`, async () => {
      writeFileSync(config(), JSON.stringify(base, null, 2));
      const before = readFileSync(config(), 'utf8');
      const victim = execa('node', [CLI, 'agent', 'add', 'victim', '--model', 'mock'], {
        cwd: home,
        env: { PATH: process.env.PATH ?? '', PEPE_HOME: home, NODE_OPTIONS: `--require ${PAUSE_WRITE}`, PEPE_PAUSE_AT: at },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the writer never reached the pause point')), 30_000);
        victim.stderr!.on('data', (d: Buffer) => {
          if (d.toString().includes('PEPE_PAUSED')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const lockHeld = existsSync(`${config()}.lock`);
      victim.kill('SIGKILL');
      const v = await victim;
      const afterKill = readFileSync(config(), 'utf8');
      // Later writers: the stale lock (no longer refreshed) must be taken over, nothing lost.
      const t = performance.now();
      const later = await Promise.all(Array.from({ length: 5 }, (_, i) => pepe(home, ['agent', 'add', `after${i}`, '--model', 'mock'], { timeoutMs: 90_000 })));
      const ms = performance.now() - t;
      const final = JSON.parse(readFileSync(config(), 'utf8'));
      const presentLater = [0, 1, 2, 3, 4].filter((i) => final.agents[`after${i}`]).length;
      const ok = v.signal === 'SIGKILL' && lockHeld && afterKill === before && later.every((r) => r.exitCode === 0) && presentLater === 5 && !final.agents.victim && final.future_feature?.on === true;
      record({
        area: 'config',
        case: `writer killed with SIGKILL ${where}`,
        expected: 'config.json unchanged (old version, whole); stale lock taken over; 5 later writers all land',
        observed: `killed by ${v.signal}; lock ${lockHeld ? 'held' : 'NOT held'} at kill; file ${afterKill === before ? 'unchanged' : 'CHANGED'}; later writers ${later.map((r) => r.exitCode).join('/')} in ${Math.round(ms)} ms; ${presentLater}/5 present; victim ${final.agents.victim ? 'present' : 'absent'}`,
        passed: ok,
        ms,
      });
      assert.equal(v.signal, 'SIGKILL', 'SIGKILL');
      assert.ok(lockHeld, 'the victim held the lock when killed');
      assert.equal(afterKill, before, 'the kill damaged config.json');
      assert.deepEqual(later.map((r) => r.exitCode), [0, 0, 0, 0, 0], later.map((r) => r.stderr).join('\n'));
      assert.equal(presentLater, 5, 'a later write was lost');
      assert.equal(final.future_feature?.on, true, 'unknown key lost');
    });
  }
});
