/**
 * A descriptor Pepe was started with and that is not closed on exec (a `make` jobserver's pipe, a
 * shell's `exec 20>>file`) must not reach a confined command: it would write through it to a file
 * outside its policy. Pepe here is a child process given such a descriptor (fd 20, a file outside
 * the workspace), running the built-in sandbox as it does for a tool call.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectConfinement } from '../../../src/core/sandbox/index.js';
import { recordAttacks } from './record.js';

const ROOT = join(import.meta.dirname, '../../..');

describe('attacks: descriptors Pepe inherited (spec 3.5)', function () {
  this.timeout(120_000);
  recordAttacks('sandbox attacks (inherited descriptors)', 'a descriptor Pepe was started with reaches no command it runs; the command gets /dev/null there');
  let root: string;

  before(async function () {
    const status = await detectConfinement();
    if (!status.confined) {
      if (process.env.CI) throw new Error(`CI must run the sandbox attacks under real confinement, but: ${status.reason}`);
      this.skip();
    }
    if (process.platform !== 'linux') this.skip();
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pepe-inherited-fd-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a command writing to a descriptor Pepe inherited writes to /dev/null, not to the file behind it; twice (the second through the shell kept waiting, as root)', async () => {
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'before\n');
    const script = join(root, 'pepe.mts');
    writeFileSync(
      script,
      [
        `import { BuiltinSandbox } from ${JSON.stringify(join(ROOT, 'src/core/slots/builtin/sandbox.ts'))};`,
        `const sandbox = new BuiltinSandbox(() => undefined, { pepeHome: ${JSON.stringify(join(root, 'pepe'))}, home: ${JSON.stringify(root)}, maxProcesses: 50 });`,
        `const opts = { cwd: ${JSON.stringify(ws)}, workspace: ${JSON.stringify(ws)}, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 20000 };`,
        `for (let i = 0; i < 2; i++) {`,
        `  const r = await sandbox.run('sh', ['-c', 'echo pwned > /proc/self/fd/20 && echo wrote; readlink /proc/self/fd/20'], opts);`,
        `  process.stdout.write(JSON.stringify(r) + '\\n');`,
        `  await sandbox.warmUp();`,
        `  await new Promise((r) => setTimeout(r, 300));`,
        `}`,
        `sandbox.dispose();`,
      ].join('\n'),
    );
    const fd = openSync(outside, 'a');
    try {
      const stdio = ['ignore', 'pipe', 'pipe', ...Array.from({ length: 17 }, () => 'ignore' as const), fd] as const;
      const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: [...stdio] });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      assert.equal(code, 0, err);
      const runs = out.trim().split('\n').map((l) => JSON.parse(l) as { output: string; exitStatus: number });
      assert.equal(runs.length, 2, out);
      for (const r of runs) assert.match(r.output, /\/dev\/null/, `the command's fd 20 is not /dev/null: ${r.output}`);
    } finally {
      closeSync(fd);
    }
    assert.equal(readFileSync(outside, 'utf8'), 'before\n', 'a confined command wrote to a file outside its policy through an inherited descriptor');
  });
});
