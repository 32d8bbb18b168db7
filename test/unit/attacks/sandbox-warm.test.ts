/**
 * Attacks on the bubblewrap kept waiting for the next confined command (run as root: the shell
 * that joined the command's pids cgroup and became bubblewrap, which reads the rest of its
 * arguments — the policy's part, the environment, the words as variables — on its input). Every
 * command through it must get exactly what the same command started directly gets: the same
 * words, environment, mounts, network and working folder, whatever the words, the values and the
 * command before it; input cut short, or a Pepe gone, must run nothing. The direct start (the
 * first command of a fresh sandbox) is the reference each time.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectConfinement, processLimitMethod } from '../../../src/core/sandbox/index.js';
import { BuiltinSandbox, type BuiltinSandboxOptions, type SandboxRunOptions, type SandboxRunResult } from '../../../src/core/slots/builtin/sandbox.js';
import { recordAttacks } from './record.js';

const ROOT = join(import.meta.dirname, '../../..');
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
type Internals = { warm: { child: ChildProcess } | null };

describe('attacks on the bubblewrap kept waiting for the next command (spec 3.5)', function () {
  this.timeout(120_000);
  recordAttacks('sandbox attacks (the bubblewrap kept waiting)', 'the command gets exactly what it gets started directly; cut-short input or a Pepe gone runs nothing');
  let root: string;
  let ws: string;
  let pepeHome: string;

  before(async function () {
    const status = await detectConfinement();
    if (!status.confined) {
      if (process.env.CI) throw new Error(`CI must run the sandbox attacks under real confinement, but: ${status.reason}`);
      this.skip();
    }
    // Only as root is a command run through a bubblewrap kept waiting (the process limit is a cgroup).
    if (processLimitMethod() !== 'cgroup') this.skip();
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pepe-warm-attack-'));
    ws = join(root, 'ws');
    pepeHome = join(root, 'pepe');
    mkdirSync(join(ws, 'sub'), { recursive: true });
    mkdirSync(pepeHome);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** The command through the bubblewrap kept waiting by `sandbox` (asserted to be there). */
  async function throughWaiting(sandbox: BuiltinSandbox, program: string, argv: string[], opts: SandboxRunOptions): Promise<SandboxRunResult> {
    await sandbox.warmUp();
    for (let i = 0; i < 100 && !(sandbox as unknown as Internals).warm; i++) await sleep(10);
    assert.ok((sandbox as unknown as Internals).warm, 'no bubblewrap was waiting');
    return sandbox.run(program, argv, opts);
  }

  /** The same command started directly: the first command of a fresh sandbox, nothing waiting. */
  async function direct(options: BuiltinSandboxOptions, program: string, argv: string[], opts: SandboxRunOptions): Promise<SandboxRunResult> {
    const sandbox = new BuiltinSandbox(() => undefined, options);
    try {
      assert.equal((sandbox as unknown as Internals).warm, null);
      return await sandbox.run(program, argv, opts);
    } finally {
      sandbox.dispose();
    }
  }

  it('words and values that look like bubblewrap options, shell syntax or the inner variables reach the command as they are, as started directly', async () => {
    const options = { pepeHome, home: root, maxProcesses: 50 };
    const words = ['--bind', '/', '/', '--setenv', '__pepe_complete', '1', '--args', '3', '--', '-', '--unshare-net', '$(touch /tmp/pwn)', '`id`', '\\', '\\\\0', '%s%n%x', "'\"'", 'a\nb', '\r', '\t', 'é😀\u202e', '', ' ', '__pepe_word_0', '$__pepe_word_1', '${IFS}', '"$@"', '€'.repeat(32 * 1024)];
    const env = {
      PATH: '/usr/bin:/bin',
      HOME: root,
      LANG: '--bind\n/\n/',
      LC_ALL: '--setenv\0x'.replace('\0', '\n'),
      IFS: '-',
      PS4: '$(touch /tmp/pwn) ',
      ENV: join(ws, 'rc'),
      BASH_ENV: join(ws, 'rc'),
      SHELLOPTS: 'xtrace',
      TERM: '$(id)`id`\\',
      USER: '%s',
    };
    const script = 'printf "[%s]\\n" "$@" | sha256sum; printf "%s\\n" "$#" "$0"; env | LC_ALL=C sort; ls -A /tmp; test -e /tmp/pwn && echo PWNED; true';
    writeFileSync(join(ws, 'rc'), 'echo RC-READ; touch /tmp/pwn\n');
    const opts = { cwd: ws, workspace: ws, env, timeoutMs: 20_000 };
    const sandbox = new BuiltinSandbox(() => undefined, options);
    try {
      for (let round = 0; round < 2; round++) {
        const warm = await throughWaiting(sandbox, 'sh', ['-c', script, 'argv0', ...words], opts);
        const cold = await direct(options, 'sh', ['-c', script, 'argv0', ...words], opts);
        assert.equal(cold.exitStatus, 0, cold.output);
        assert.equal(warm.exitStatus, cold.exitStatus);
        assert.equal(warm.output, cold.output);
        assert.match(warm.output, new RegExp(`\\n${words.length}\\nargv0\\n`), warm.output);
        assert.doesNotMatch(warm.output, /__pepe_word_\d+=|__pepe_words=|__pepe_complete=|RC-READ|PWNED/, 'an inner variable reached the command, or something it named ran');
      }
    } finally {
      sandbox.dispose();
    }
  });

  // Failed before: the shell inside counted the words in a variable named `i`, which took the place of the command's own.
  it('a variable of the environment named like the counter of the shell inside reaches the command, as started directly', async () => {
    const options = { pepeHome, home: root, maxProcesses: 50 };
    const opts = { cwd: ws, workspace: ws, env: { PATH: '/usr/bin:/bin', i: 'the command’s own', n: '1' }, timeoutMs: 20_000 };
    const sandbox = new BuiltinSandbox(() => undefined, options);
    try {
      const warm = await throughWaiting(sandbox, 'sh', ['-c', 'echo "i=${i-unset} n=$n"', 'sh', 'a', 'b'], opts);
      const cold = await direct(options, 'sh', ['-c', 'echo "i=${i-unset} n=$n"', 'sh', 'a', 'b'], opts);
      assert.equal(cold.output, 'i=the command’s own n=1\n');
      assert.equal(warm.output, cold.output);
    } finally {
      sandbox.dispose();
    }
  });

  // Failed before: only the working folder was checked for a NUL byte; one in a hidden place cut it
  // into arguments of their own, which bubblewrap took as options (here, a writable bind).
  it('a NUL byte in any place of the policy never becomes a bubblewrap option: the command is refused, as started directly', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    // $PEPE_HOME not created yet inside the workspace is hidden without being looked at.
    const options = { pepeHome: `${join(ws, '.pepe')}\0--bind\0${outside}\0${outside}`, home: root, maxProcesses: 50 };
    const opts = { cwd: ws, workspace: ws, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 20_000 };
    const write = ['-c', `echo x > ${join(outside, 'escaped')} && echo wrote`];
    const cold = await direct(options, 'sh', write, opts);
    assert.equal(cold.exitStatus, 1);
    assert.match(cold.output, /null bytes/);
    const sandbox = new BuiltinSandbox(() => undefined, options);
    try {
      const warm = await throughWaiting(sandbox, 'sh', write, opts);
      assert.equal(existsSync(join(outside, 'escaped')), false, `a place outside the policy was written: ${warm.output}`);
      assert.equal(warm.exitStatus, 1);
      assert.match(warm.output, /null bytes/);
    } finally {
      sandbox.dispose();
    }
  });

  it('commands in a row with alternating policies (network, writable places, working folder) each get their own, as started directly', async () => {
    const extra = join(root, 'extra');
    const readable = join(root, 'readable');
    mkdirSync(extra);
    mkdirSync(readable);
    let places: { readable?: string[]; writable?: string[] } = {};
    const options = { pepeHome, home: root, maxProcesses: 50, places: () => places };
    const env = { PATH: '/usr/bin:/bin', HOME: root };
    const probe = [
      "awk '{print $5, $6, $(NF-2)}' /proc/self/mountinfo | LC_ALL=C sort",
      'pwd',
      'env | LC_ALL=C sort',
      'grep -c : /proc/net/dev',
      `for d in ${ws} ${ws}/sub ${extra} ${readable} ${root} /; do (echo x > "$d/w.$$") 2>/dev/null && echo "wrote $d" && rm -f "$d/w.$$"; done`,
      `ls ${readable} ${pepeHome} 2>&1; true`,
    ].join('; ');
    const sandbox = new BuiltinSandbox(() => undefined, options);
    const seen = new Set<string>();
    try {
      for (let k = 0; k < 8; k++) {
        places = [{ writable: [extra], readable: [readable] }, {}, { readable: [extra] }, { writable: [readable] }][k % 4]!;
        const opts = { cwd: k % 3 === 1 ? join(ws, 'sub') : ws, workspace: ws, env: { ...env, ROUND: String(k % 4) }, timeoutMs: 20_000, network: k % 2 === 1 };
        const warm = await throughWaiting(sandbox, 'sh', ['-c', probe], opts);
        const cold = await direct(options, 'sh', ['-c', probe], opts);
        assert.equal(cold.exitStatus, 0, cold.output);
        assert.equal(warm.output, cold.output, `command ${k}: not what it gets started directly`);
        seen.add(warm.output);
        // What the policy says, seen from inside.
        assert.equal(warm.output.includes(`wrote ${extra}\n`), places.writable?.includes(extra) === true, `command ${k}: ${extra}`);
        assert.equal(warm.output.includes(`wrote ${root}\n`) || warm.output.includes('wrote /\n'), false, `command ${k} wrote outside its places`);
      }
      assert.ok(seen.size >= 6, 'the policies did not differ from inside');
    } finally {
      sandbox.dispose();
    }
  });

  it('output, exit statuses and the output cap are those of the command started directly', async () => {
    const options = { pepeHome, home: root, maxProcesses: 50 };
    const cases: [string, string[], number?][] = [
      ['sh', ['-c', 'echo out; echo err >&2; echo out2; printf "\\377\\376 not utf-8\\n" >&2; exit 7']],
      ['sh', ['-c', 'echo before; kill -TERM $$']],
      ['no-such-program-here', ['--bind', '/', '/']],
      ['sh', ['-c', 'for i in $(seq 3000); do echo "line $i"; echo "err $i" >&2; done; printf "bwrap: not bubblewrap"; exit 3'], 2_000],
      ['sh', ['-c', 'exec 1>&-; echo only-err >&2; exit 0']],
    ];
    const sandbox = new BuiltinSandbox(() => undefined, options);
    try {
      for (const [program, argv, maxOutputChars] of cases) {
        const opts = { cwd: ws, workspace: ws, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 20_000, ...(maxOutputChars ? { maxOutputChars } : {}) };
        const warm = await throughWaiting(sandbox, program, argv, opts);
        const cold = await direct(options, program, argv, opts);
        assert.deepEqual(warm, cold, `${program} ${argv.join(' ')}`);
      }
    } finally {
      sandbox.dispose();
    }
  });

  it('a command through it cannot leave, widen or replace its process-limit group, and its forks stop at the limit; Pepe stays in its own group', async () => {
    const limit = 24;
    const own = readFileSync('/proc/self/cgroup', 'utf8');
    const sandbox = new BuiltinSandbox(() => undefined, { pepeHome, home: root, maxProcesses: limit });
    const script = `
      for f in /sys/fs/cgroup/*/cgroup.procs /sys/fs/cgroup/*/pepe-*/cgroup.procs /sys/fs/cgroup/*/pepe-*/pids.max /sys/fs/cgroup/*/tasks; do
        [ -e "$f" ] && (echo $$ > "$f") 2>/dev/null && echo "wrote $f"; [ -e "$f" ] && (echo max > "$f") 2>/dev/null && echo "wrote $f"
      done
      for d in /sys/fs/cgroup/*; do mkdir "$d/escape" 2>/dev/null && echo "made $d/escape"; done
      mount -t cgroup -o pids none /tmp 2>/dev/null && echo mounted
      unshare -C true 2>/dev/null && echo unshared
      python3 -c '
import os, time
n = 0
for i in range(3 * ${limit}):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(1.5)
        os._exit(0)
    n += 1
print("forked", n)
'`;
    try {
      const r = await throughWaiting(sandbox, 'bash', ['-c', script], { cwd: ws, workspace: ws, env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' }, timeoutMs: 30_000 });
      assert.doesNotMatch(r.output, /wrote|made|mounted|unshared/, r.output);
      const forked = Number(/forked (\d+)/.exec(r.output)?.[1]);
      assert.ok(forked > 5 && forked < limit, `forks inside: ${forked} (limit ${limit}): ${r.output}`);
      assert.equal(readFileSync('/proc/self/cgroup', 'utf8'), own, 'this process was moved');
    } finally {
      sandbox.dispose();
    }
  });

  /** A fresh Pepe process that warms up, then runs `script` (with `sandbox` and `marker` in scope). */
  function pepeProcess(script: string, marker: string): Promise<string> {
    const code = `(async () => {
      const { writeSync } = await import('node:fs');
      const { BuiltinSandbox } = await import('./src/core/slots/builtin/sandbox.ts');
      const sandbox = new BuiltinSandbox(() => undefined, { pepeHome: process.env.T_PEPE_HOME, maxProcesses: 50 });
      const marker = process.env.T_MARKER;
      const say = (text) => writeSync(1, text + '\\n');
      await sandbox.warmUp();
      for (let i = 0; i < 100 && !sandbox.warm; i++) await new Promise((res) => setTimeout(res, 10));
      say('waiting ' + sandbox.warm.child.pid);
      ${script}
    })()`;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { cwd: ROOT, env: { ...process.env, T_PEPE_HOME: pepeHome, T_MARKER: marker }, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.once('error', reject);
      child.once('close', () => resolve(out));
    });
  }

  /** Whether `pid` has ended (a zombie waiting for its new parent to reap it counts as ended). */
  async function ended(pid: number): Promise<boolean> {
    for (let i = 0; i < 100; i++) {
      let state: string;
      try {
        state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0]!;
      } catch {
        return true;
      }
      if (state === 'Z') return true;
      await sleep(50);
    }
    return false;
  }

  it('a Pepe killed in the middle of sending a command, or while bubblewrap waits, runs nothing, and the bubblewrap kept waiting does not outlive it', async () => {
    const marker = join(ws, 'ran.txt');
    // Words big enough that the write cannot be taken at once (about 1 MB, under the kernel's limit for a command).
    const big = `const big = Array.from({ length: 32 }, () => 'x'.repeat(30000));`;
    const run = `sandbox.run('sh', ['-c', 'touch "$0"', marker, ...big], { cwd: process.env.T_WS, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 20000 })`;
    process.env.T_WS = ws;
    try {
      // Control: the same command sent whole runs.
      const control = await pepeProcess(`${big} const r = await ${run}; say('status ' + r.exitStatus + ' ' + JSON.stringify(r.output)); sandbox.dispose();`, marker);
      assert.match(control, /status 0 ""/, control);
      assert.equal(existsSync(marker), true, 'control: the command sent whole did not run');
      rmSync(marker);

      // Killed right after the first part of the arguments went out: the rest never comes.
      const cut = await pepeProcess(
        `${big}
        const stdin = sandbox.warm.child.stdin;
        const end = stdin.end.bind(stdin);
        stdin.end = (data) => { end(data); say('unsent ' + stdin._handle.writeQueueSize); process.kill(process.pid, 'SIGKILL'); };
        ${run};`,
        marker,
      );
      const unsent = Number(/unsent (\d+)/.exec(cut)?.[1]);
      assert.ok(unsent > 0, `the write was not cut: ${cut}`);
      const cutPid = Number(/waiting (\d+)/.exec(cut)?.[1]);
      assert.equal(await ended(cutPid), true, 'the bubblewrap that got part of a command is still there');

      // Killed while bubblewrap waits (a command refused, say): it ends too.
      const idle = await pepeProcess(`process.kill(process.pid, 'SIGKILL');`, marker);
      const idlePid = Number(/waiting (\d+)/.exec(idle)?.[1]);
      assert.ok(idlePid > 0, idle);
      assert.equal(await ended(idlePid), true, 'the bubblewrap kept waiting outlived Pepe');

      await sleep(500);
      assert.equal(existsSync(marker), false, 'a command ran without all of its arguments');
    } finally {
      delete process.env.T_WS;
    }
  });
});
