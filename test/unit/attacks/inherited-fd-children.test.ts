/**
 * Descriptors Pepe was started with and that are not closed on exec (a `make` jobserver's pipe, a
 * shell's `exec 20>>file`) reach none of its other children either: a workspace's hook, the
 * checkpoints' and tasks' git (through execa), the plugin host (whose own channel is fd 3), a
 * local MCP server, the confinement probe's bubblewrap. Pepe here is a child process given two such descriptors, 20 and 30, on files
 * outside the workspace (Node itself marks some low ones it was started with, such as 3 and 9,
 * closed on exec).
 */
import assert from 'node:assert/strict';
import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectConfinement } from '../../../src/core/sandbox/index.js';
import { recordAttacks } from './record.js';

const ROOT = join(import.meta.dirname, '../../..');

describe('attacks: descriptors Pepe inherited, in its other children (spec 3.5)', function () {
  this.timeout(120_000);
  recordAttacks('sandbox attacks (inherited descriptors, other children)', 'a descriptor Pepe was started with reaches no hook, git, plugin host or MCP server it starts');
  let root: string;

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    const status = await detectConfinement();
    if (!status.confined) {
      if (process.env.CI) throw new Error(`CI must run the sandbox attacks under real confinement, but: ${status.reason}`);
      this.skip();
    }
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pepe-inherited-fd-children-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a hook, an execa child, a child with its own fd 3 (kept) and an MCP server see /dev/null where Pepe had the files, and write nothing to them', async () => {
    const ws = join(root, 'ws');
    const pepeHome = join(root, 'pepe');
    mkdirSync(ws);
    mkdirSync(pepeHome);
    const outside = [join(root, 'outside-30.txt'), join(root, 'outside-20.txt')];
    for (const f of outside) writeFileSync(f, 'before\n');
    const src = (p: string) => JSON.stringify(join(ROOT, p));
    const script = join(root, 'pepe.mts');
    writeFileSync(
      script,
      [
        `import { readFileSync } from 'node:fs';`,
        `import { spawn, type StdioOptions } from 'node:child_process';`,
        `import { execa } from ${src('node_modules/execa/index.js')};`,
        `import { HookRunner } from ${src('src/core/runtime/hook-runner.ts')};`,
        `import { execaWithoutInherited, withoutInherited } from ${src('src/core/sandbox/inherited-fds.ts')};`,
        `import { StdioServerTransport } from ${src('src/core/mcp/stdio-transport.ts')};`,
        `const probe = 'for n in 20 30; do echo "$n $(readlink /proc/self/fd/$n)"; echo pwned > /proc/self/fd/$n; done 2>/dev/null; true';`,
        `const out = {};`,
        // A workspace's hook: confined, its command the workspace's.
        `const runner = new HookRunner({ hooks: () => [{ event: 'PreToolUse', matcher: 'bash', command: '{ ' + probe + '; } > "$PEPE_HOOK_DATA/fds"', timeoutS: 30, source: 'config.json', personal: true }], workspace: ${JSON.stringify(ws)}, pepeHome: ${JSON.stringify(pepeHome)}, env: () => ({ PATH: '/usr/bin:/bin' }), secrets: () => [], log: () => undefined });`,
        `await runner.preToolUse('bash', {});`,
        `out.hook = readFileSync(${JSON.stringify(join(pepeHome, 'hook-data', 'fds'))}, 'utf8');`,
        // As the checkpoints' and tasks' git are started.
        `out.execa = (await execa('sh', ['-c', probe], { stdio: execaWithoutInherited(['ignore', 'pipe', 'pipe']), reject: false })).stdout;`,
        // As the plugin host is started: fd 3 is its channel, and stays so.
        `const c = spawn('sh', ['-c', probe + '; readlink /proc/self/fd/3'], { stdio: withoutInherited(['ignore', 'pipe', 'pipe', 'pipe']) });`,
        `let text = ''; c.stdout.on('data', (d) => (text += d));`,
        `await new Promise((r) => c.on('close', r));`,
        `out.channel = text;`,
        // As a local MCP server is started (its output here on stderr; stdout is the protocol's).
        `const mcp = new StdioServerTransport({ command: 'sh', args: ['-c', '{ ' + probe + '; } >&2'], env: { PATH: '/usr/bin:/bin' }, cwd: ${JSON.stringify(ws)}, maxBufferSize: 1 << 20 });`,
        `let mcpText = ''; mcp.stderr.on('data', (d) => (mcpText += d));`,
        `const mcpClosed = new Promise((r) => (mcp.onclose = r));`,
        `await mcp.start();`,
        `await mcpClosed;`,
        `out.mcp = mcpText;`,
        // The confinement probe (fixed bubblewrap commands): what it hands bubblewrap, seen at spawn.
        `const cp = (await import('node:child_process')).default;`,
        `const { syncBuiltinESMExports } = await import('node:module');`,
        `const probeStdio = []; const realSpawn = cp.spawn;`,
        `cp.spawn = function (...a) { probeStdio.push(a[2]?.stdio ?? null); return realSpawn.apply(this, a); }; syncBuiltinESMExports();`,
        `const { detectConfinement } = await import(${src('src/core/sandbox/detect.ts')});`,
        `const status = await detectConfinement({ fresh: true });`,
        `cp.spawn = realSpawn; syncBuiltinESMExports();`,
        `out.probe = { confined: status.confined, fds: probeStdio.map((s) => (Array.isArray(s) ? [s[20] === undefined ? 'inherited' : typeof s[20], s[30] === undefined ? 'inherited' : typeof s[30]] : 'inherited')) };`,
        `process.stdout.write(JSON.stringify(out));`,
      ].join('\n'),
    );
    const fds = outside.map((f) => openSync(f, 'a'));
    try {
      const stdio: StdioOptions = ['ignore', 'pipe', 'pipe', ...Array.from({ length: 17 }, () => 'ignore' as const), fds[1]!, ...Array.from({ length: 9 }, () => 'ignore' as const), fds[0]!];
      const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      assert.equal(code, 0, stderr);
      const out = JSON.parse(stdout) as { hook: string; execa: string; channel: string; mcp: string; probe: { confined: boolean; fds: unknown[] } };
      // The probe's own commands are fixed (nothing of a workspace's), but get /dev/null all the same.
      assert.equal(out.probe.confined, true);
      assert.ok(out.probe.fds.length >= 2, `the probe's bubblewrap runs were seen: ${JSON.stringify(out.probe)}`);
      for (const fds of out.probe.fds) assert.deepEqual(fds, ['number', 'number'], `the probe's descriptors 20 and 30: ${JSON.stringify(out.probe)}`);
      assert.match(out.hook, /^20 \/dev\/null\n30 \/dev\/null\n$/, `the hook's descriptors: ${out.hook}`);
      assert.match(out.execa, /^20 \/dev\/null\n30 \/dev\/null$/, `execa's child's descriptors: ${out.execa}`);
      assert.match(out.mcp, /^20 \/dev\/null\n30 \/dev\/null\n$/, `a local MCP server's descriptors: ${out.mcp}`);
      assert.match(out.channel, /^20 \/dev\/null\n30 \/dev\/null\n(pipe|socket):\[\d+\]\n$/, `the plugin host's descriptors: ${out.channel}`);
    } finally {
      for (const fd of fds) closeSync(fd);
    }
    for (const f of outside) assert.equal(readFileSync(f, 'utf8'), 'before\n', `a child wrote to ${f} through a descriptor Pepe inherited`);
  });
});
