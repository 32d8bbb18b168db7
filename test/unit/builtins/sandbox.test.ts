import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinSandbox } from '../../../src/core/slots/builtin/sandbox.js';

describe('built-in sandbox (spec 3.5)', function () {
  this.timeout(20_000);
  const dir = mkdtempSync(join(tmpdir(), 'pepe-sandbox-'));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const opts = { cwd: dir, env, timeoutMs: 10_000 };
  const sandbox = new BuiltinSandbox();

  it('exact exit status and interleaved stdout/stderr', async () => {
    const r = await sandbox.run('bash', ['-c', 'echo out; echo err >&2; echo out2; exit 7'], opts);
    assert.equal(r.exitStatus, 7);
    assert.equal(r.output, 'out\nerr\nout2\n');
  });

  it('runs in the given cwd with only the given environment', async () => {
    const r = await sandbox.run('bash', ['-c', 'pwd; env | sort'], { ...opts, env: { ...env, ONLY_THIS: '1' } });
    const lines = r.output.trim().split('\n');
    assert.equal(lines[0], dir);
    assert.deepEqual(lines.slice(1).map((l) => l.split('=')[0]).filter((n) => !['PWD', 'SHLVL', '_'].includes(n!)), ['ONLY_THIS', 'PATH']);
  });

  it('a missing program is exit 127 with a message', async () => {
    const r = await sandbox.run('definitely-not-a-program', [], opts);
    assert.equal(r.exitStatus, 127);
    assert.match(r.output, /definitely-not-a-program: not found/);
  });

  it('a signal gives 128+n', async () => {
    const r = await sandbox.run('bash', ['-c', 'kill -TERM $$'], opts);
    assert.equal(r.exitStatus, 143);
  });

  it('the deadline kills the whole process group, grandchildren included', async () => {
    const marker = join(dir, 'grandchild-survived');
    const started = performance.now();
    const r = await sandbox.run('bash', ['-c', `(sleep 1.5; touch ${marker}) & sleep 30`], { ...opts, timeoutMs: 300 });
    assert.ok(performance.now() - started < 2_000, 'performance.now() - started < 2_000');
    assert.equal(r.timedOut, true);
    assert.equal(r.exitStatus, 137);
    assert.match(r.output, /timed out after 300 ms/);
    await new Promise((res) => setTimeout(res, 1_800));
    assert.equal(existsSync(marker), false, 'the background grandchild was killed too');
  });

  it('cancellation through an AbortSignal kills the command', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await sandbox.run('sleep', ['20'], { ...opts, signal: ac.signal });
    assert.equal(r.cancelled, true);
    assert.match(r.output, /cancelled/);
  });

  it('output is capped keeping head and tail, and streamed live', async () => {
    let streamed = 0;
    const r = await sandbox.run('bash', ['-c', 'echo HEAD; seq 1 200000; echo TAIL'], { ...opts, maxOutputChars: 1000, onData: (c) => (streamed += c.length) });
    assert.ok(r.output.startsWith('HEAD\n'), 'r.output.startsWith(\'HEAD\\n\')');
    assert.ok(r.output.trimEnd().endsWith('TAIL'), 'r.output.trimEnd().endsWith(\'TAIL\')');
    assert.match(r.output, /characters omitted/);
    assert.ok(r.output.length < 1200, 'r.output.length < 1200');
    assert.ok(streamed > 1_000_000, 'streamed > 1_000_000');
    assert.equal(r.exitStatus, 0);
  });

  it('with a wrapper, runs `wrapper program argv…`', async () => {
    const wrapper = join(dir, 'wrap.sh');
    writeFileSync(wrapper, '#!/bin/sh\necho "wrapped: $*"\nexec "$@"\n');
    chmodSync(wrapper, 0o755);
    const r = await new BuiltinSandbox(() => wrapper).run('echo', ['hi there'], opts);
    assert.equal(r.output, 'wrapped: echo hi there\nhi there\n');
  });
});
