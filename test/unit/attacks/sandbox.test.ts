/**
 * Attacks on the built-in sandbox (spec 3.5, 8), run through the real bubblewrap. Each attack is
 * a shell command a hostile model could ask for. A host process stands in for `pepe`: it holds a
 * secret in its environment, command line and memory and runs the commands through the built-in
 * sandbox. Where it means something, the same attack is also run as a plain child process (the
 * old sandbox) as a control, proving the attack works there and the test can fail.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectConfinement, processLimitMethod } from '../../../src/core/sandbox/index.js';
import { record } from '../faults/report.js';

const SECRET = `sk-attack-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
const HOST = join(import.meta.dirname, 'sandbox-host.ts');

interface Run {
  command: string;
  network?: boolean;
  timeoutMs?: number;
}
interface Result {
  output: string;
  exitStatus: number;
  timedOut: boolean;
}

describe('attacks on the sandbox (spec 3.5, 8)', function () {
  this.timeout(120_000);
  let root: string;
  let workspace: string;
  let pepeHome: string;
  let home: string;
  let server: Server;
  let port: number;
  let hits = 0;

  before(async function () {
    const status = await detectConfinement();
    if (!status.confined) {
      if (process.env.CI) throw new Error(`CI must run the sandbox attacks under real confinement, but: ${status.reason}`);
      console.log(`      (skipped: no confinement here: ${status.reason})`);
      this.skip();
    }
    server = createServer((_req, res) => {
      hits++;
      res.end('host-loopback-answer');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(() => server?.close());

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pepe-attack-'));
    workspace = join(root, 'project');
    pepeHome = join(root, 'pepe-home');
    home = join(root, 'home');
    mkdirSync(join(workspace, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(workspace, '.git', 'config'), '[core]\n\tbare = false\n');
    writeFileSync(join(workspace, 'README.md'), 'hello\n');
    mkdirSync(join(pepeHome, 'plugins'), { recursive: true });
    writeFileSync(join(pepeHome, 'config.json'), JSON.stringify({ marker: 'pepe-config-marker', models: { m: { api_key_env: 'PEPE_ATTACK_API_KEY' } } }));
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE-KEY-MARKER\n');
    writeFileSync(join(home, '.bashrc'), '# the user\'s own\n');
  });
  /** What the current test saw, for the reliability report (filled from the runs' own output). */
  let observed = '';
  afterEach(function () {
    rmSync(root, { recursive: true, force: true });
    const t = this.currentTest;
    if (t && t.state !== 'pending') {
      record({ area: 'sandbox attacks', case: t.title, expected: 'blocked when confined; the control shows it works on a plain child process', observed: t.state === 'passed' ? observed : `FAILED: ${t.err?.message ?? ''}`.slice(0, 300), passed: t.state === 'passed', ms: t.duration });
    }
    observed = '';
  });

  /** Runs the commands in a fresh host process holding SECRET. */
  function attack(mode: 'confined' | 'unconfined', runs: Run[], extra: { maxProcesses?: number } = {}): Promise<Result[]> {
    const request = JSON.stringify({ mode, workspace, pepeHome, home, runs, ...extra });
    return new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', HOST, request, `--secret=${SECRET}`],
        { env: { PATH: process.env.PATH, HOME: home, PEPE_ATTACK_API_KEY: SECRET, DATABASE_URL: `postgres://app:${SECRET}@db.internal/app` }, maxBuffer: 64 * 1024 * 1024, timeout: 100_000 },
        (error, stdout, stderr) => {
          if (error) return reject(new Error(`host failed: ${error.message}\n${stderr}`));
          resolve((JSON.parse(stdout.trim().split('\n').pop()!) as { results: Result[] }).results);
        },
      );
    });
  }

  it('secrets cannot be read back: environment, /proc/<ppid>/environ, every /proc/*/environ and cmdline, the parent’s memory', async () => {
    const readMemory = `python3 - <<'PY'
import os, re
pid = int(os.environ.get('HOST_PID', '0'))
found = b''
try:
    for line in open(f'/proc/{pid}/maps'):
        if '[stack]' not in line: continue
        lo, hi = (int(x, 16) for x in line.split()[0].split('-'))
        with open(f'/proc/{pid}/mem', 'rb') as mem:
            mem.seek(lo); data = mem.read(hi - lo)
        m = re.search(rb'sk-attack-[a-z0-9-]+', data)
        if m: found = m.group(0)
    print('MEMORY:' + found.decode())
except Exception as e:
    print('MEMORY-REFUSED:' + type(e).__name__)
PY`;
    const runs = [
      { command: 'env' },
      { command: 'tr "\\0" "\\n" < /proc/$PPID/environ; tr "\\0" "\\n" < /proc/$HOST_PID/environ' },
      { command: 'for p in /proc/[0-9]*; do tr "\\0" "\\n" < $p/environ; tr "\\0" " " < $p/cmdline; echo; done 2>/dev/null' },
      { command: readMemory },
    ];
    const confined = await attack('confined', runs);
    const control = await attack('unconfined', runs);
    const names = ['env', '/proc/<ppid>/environ', '/proc/*/environ and cmdline', 'parent memory'];
    const leaks = confined.map((r, i) => (r.output.includes(SECRET) ? names[i] : null)).filter(Boolean);
    assert.deepEqual(leaks, [], `the secret leaked into the sandbox through: ${leaks.join(', ')}`);
    // The control: as a plain child process the /proc routes do give the secret away.
    assert.ok(control[1]!.output.includes(SECRET), 'control: /proc/<ppid>/environ leaks as a plain child process');
    assert.ok(control[2]!.output.includes(SECRET), 'control: /proc/*/cmdline leaks as a plain child process');
    // The environment itself is an allow-list in both: the URL-embedded key never passes either.
    assert.ok(!control[0]!.output.includes(SECRET), 'allow-list environment');
    assert.match(confined[3]!.output, /MEMORY-REFUSED|MEMORY:$/m);
    observed = `confined: no secret in ${names.join(', ')} (memory: ${confined[3]!.output.trim()}); plain child process: leaked via /proc/<ppid>/environ and /proc/*/cmdline`;
  });

  it('the policy cannot be rewritten from inside: $PEPE_HOME is invisible and unwritable, even after trying to unmount', async () => {
    const cfg = join(pepeHome, 'config.json');
    const before = readFileSync(cfg, 'utf8');
    const command = `cat ${cfg}; ls -A ${pepeHome}; echo '{"agents":{"x":{"auto_approve":["*"]}}}' > ${cfg}; mkdir -p ${pepeHome}/plugins && echo 'export const name=()=>"evil"' > ${pepeHome}/plugins/evil.mjs; umount ${pepeHome}; cat ${cfg}; true`;
    const [confined] = await attack('confined', [{ command }]);
    assert.doesNotMatch(confined!.output, /pepe-config-marker/, 'config.json was readable inside');
    assert.equal(readFileSync(cfg, 'utf8'), before, 'config.json was rewritten');
    assert.equal(existsSync(join(pepeHome, 'plugins', 'evil.mjs')), false, 'a plugin was planted');
    const [control] = await attack('unconfined', [{ command }]);
    assert.match(control!.output, /pepe-config-marker/, 'control: readable as a plain child process');
    assert.notEqual(readFileSync(cfg, 'utf8'), before, 'control: rewritable as a plain child process');
    observed = `confined: config unreadable and unchanged, no plugin planted, umount refused; plain child process: read and rewrote it`;
  });

  it('no network without asking: a loopback server on the host is unreachable; allowed, it is', async () => {
    const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
    hits = 0;
    const [off, on] = await attack('confined', [{ command }, { command, network: true }]);
    assert.doesNotMatch(off!.output, /host-loopback-answer/);
    assert.notEqual(off!.exitStatus, 0);
    assert.match(on!.output, /host-loopback-answer/, 'with the network allowed the same command connects');
    assert.equal(hits, 1, 'exactly one request reached the host: the allowed one');
    const [control] = await attack('unconfined', [{ command }]);
    assert.match(control!.output, /host-loopback-answer/, 'control: a plain child process reaches it');
    observed = `confined: connection failed (exit ${off!.exitStatus}); with the network allowed: answered; plain child process: answered`;
  });

  it('writes stay in the workspace: not a HOME dotfile, .git/hooks, .git/config or the host /tmp; secrets in HOME are hidden', async () => {
    const marker = `pepe-attack-host-tmp-${Date.now()}`;
    const command = [
      `echo pwned >> ${home}/.bashrc`,
      `cat ${home}/.ssh/id_ed25519`,
      `printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit`,
      `printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' >> .git/config`,
      `touch /tmp/${marker}`,
      'echo ok > inside.txt',
      'true',
    ].join('; ');
    const [confined] = await attack('confined', [{ command }]);
    assert.equal(readFileSync(join(home, '.bashrc'), 'utf8'), "# the user's own\n", 'HOME dotfile changed');
    assert.doesNotMatch(confined!.output, /PRIVATE-KEY-MARKER/, '~/.ssh was readable');
    assert.equal(existsSync(join(workspace, '.git', 'hooks', 'pre-commit')), false, 'a git hook was planted');
    assert.doesNotMatch(readFileSync(join(workspace, '.git', 'config'), 'utf8'), /fsmonitor/, '.git/config changed');
    assert.equal(existsSync(join(tmpdir(), marker)), false, 'the host /tmp was written');
    assert.equal(readFileSync(join(workspace, 'inside.txt'), 'utf8'), 'ok\n', 'the workspace itself is writable');
    const [control] = await attack('unconfined', [{ command }]);
    assert.match(control!.output, /PRIVATE-KEY-MARKER/, 'control: readable as a plain child process');
    assert.ok(existsSync(join(workspace, '.git', 'hooks', 'pre-commit')), 'control: a hook can be planted as a plain child process');
    rmSync(join(tmpdir(), marker), { force: true });
    observed = 'confined: .bashrc, .git/hooks, .git/config and host /tmp unchanged, ~/.ssh hidden, workspace writable; plain child process: read the key and planted a hook';
  });

  it('git cannot be swapped: moving .git aside to plant a new one with its own hook fails', async () => {
    const command = 'mv .git .git-old; mkdir -p .git/hooks; printf "#!/bin/sh\\necho pwned\\n" > .git/hooks/pre-commit; echo "[core]" > .git/config; true';
    await attack('confined', [{ command }]);
    assert.equal(existsSync(join(workspace, '.git-old')), false, '.git was moved aside');
    assert.equal(existsSync(join(workspace, '.git', 'hooks', 'pre-commit')), false, 'a hook was planted');
    assert.equal(readFileSync(join(workspace, '.git', 'config'), 'utf8'), '[core]\n\tbare = false\n');
    await attack('unconfined', [{ command }]);
    assert.ok(existsSync(join(workspace, '.git', 'hooks', 'pre-commit')), 'control: works as a plain child process');
    observed = 'confined: mv .git refused (a mount point), no hook planted; plain child process: hook planted';
  });

  it('nothing is left behind: a daemon started with setsid or nohup dies with the command', async () => {
    const tag = String(900000 + Math.floor(Math.random() * 99999));
    const command = `setsid sleep ${tag} > /dev/null 2>&1 & (nohup sleep ${Number(tag) + 1} > /dev/null 2>&1 &); sleep 0.2; echo started`;
    const [confined] = await attack('confined', [{ command }]);
    assert.match(confined!.output, /started/);
    await new Promise((r) => setTimeout(r, 300));
    const survivors = sleepers(tag);
    try {
      assert.deepEqual(survivors, [], 'a process the command started outlived it');
    } finally {
      for (const pid of survivors) process.kill(pid, 'SIGKILL');
    }
    // The control: a plain child process's daemons outlive it (only the process group was killed).
    await attack('unconfined', [{ command }]);
    const escaped = sleepers(tag);
    for (const pid of escaped) process.kill(pid, 'SIGKILL');
    assert.ok(escaped.length > 0, 'control: a daemon outlives a plain child process');
    observed = `confined: no survivor; plain child process: ${escaped.length} daemon(s) survived`;
  });

  it('`ps` shows only the command’s own processes', async () => {
    const [confined] = await attack('confined', [{ command: 'ps -eo pid=,comm=' }]);
    const lines = confined!.output.trim().split('\n');
    assert.ok(lines.length <= 4, `ps listed ${lines.length} processes:\n${confined!.output}`);
    assert.doesNotMatch(confined!.output, /node|mocha|tsx/);
    const [control] = await attack('unconfined', [{ command: 'ps -eo pid=,comm=' }]);
    assert.match(control!.output, /node/, 'control: a plain child process sees the host');
    observed = `confined: ${lines.length} processes listed, none of the host's; plain child process: ${control!.output.trim().split('\n').length}`;
  });

  it('a fork bomb is bounded by the process limit', async function () {
    if (processLimitMethod() === 'none') {
      if (process.env.CI) throw new Error('no process limit holds here (root without a writable pids cgroup)');
      this.skip();
    }
    const limit = 40;
    // Counted: many sleepers at once, then how many processes exist in the sandbox.
    const count = `python3 -c '
import os, time
for i in range(150):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(2)
        os._exit(0)
print(len([p for p in os.listdir("/proc") if p.isdigit()]))
'`;
    const tag = `bomb${Date.now()}`;
    const bomb = `${tag}() { ${tag} | ${tag} & }; ${tag}; sleep 30`;
    // Counted twice: the first command gets its group directly, the next ones through the shell
    // kept waiting in a group of its own; both must hold the limit.
    const [counted, countedAgain, bombed] = await attack('confined', [{ command: count, timeoutMs: 60_000 }, { command: count, timeoutMs: 60_000 }, { command: bomb, timeoutMs: 2_000 }], { maxProcesses: limit });
    const n = Number(counted!.output.trim().split('\n').pop());
    assert.ok(n > 5 && n <= limit, `processes inside: ${n} (limit ${limit})`);
    const again = Number(countedAgain!.output.trim().split('\n').pop());
    assert.ok(again > 5 && again <= limit, `processes inside the second command: ${again} (limit ${limit})`);
    assert.ok(bombed!.timedOut, 'the bomb ran until its deadline');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(processesMatching(tag), [], 'part of the bomb outlived the command');
    // Generous deadlines: on a loaded machine 150 forks can take seconds (the deadline is not the measure).
    const [control] = await attack('unconfined', [{ command: count, timeoutMs: 60_000 }], { maxProcesses: limit });
    assert.ok(Number(control!.output.trim().split('\n').pop()) > limit, `control: no limit as a plain child process (${JSON.stringify(control!.output.slice(-200))})`);
    observed = `limit ${limit} (${processLimitMethod()}): ${n} processes at most inside; the bomb ran to its deadline and left nothing; plain child process: ${control!.output.trim().split('\n').pop()}`;
  });
});

/** Host processes running `sleep <tag>` or `sleep <tag+1>`. */
function sleepers(tag: string): number[] {
  return [...processesMatching(`sleep ${tag}`), ...processesMatching(`sleep ${Number(tag) + 1}`)];
}

/** Host processes whose command line contains `text`, this test's own process excepted. */
function processesMatching(text: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes(text) && Number(name) !== process.pid && !cmd.includes('sandbox-host.ts')) out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out;
}
