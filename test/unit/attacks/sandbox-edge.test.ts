/**
 * Attacks past the sandbox's edge (spec 8, 8.1): a confined command cannot do harm itself, but it
 * can write files a program outside later obeys (the person's next `git`), and it can read what a
 * hide-list of credential places does not know. Each attack runs through the real built-in
 * sandbox (bubblewrap) in a host process standing in for `pepe` (sandbox-host.ts), with a fake
 * home folder; where it means something, the same command runs as a plain child process as a
 * control, proving the attack works there and the test can fail.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectConfinement } from '../../../src/core/sandbox/index.js';
import { git } from './git-attack-helpers.js';

const HOST = join(import.meta.dirname, 'sandbox-host.ts');
/** Outside /tmp: the sandbox's /tmp is its own, which would hide what these tests must find. */
const SCRATCH = join(import.meta.dirname, '../../../.test-tmp');

interface Result {
  output: string;
  exitStatus: number;
  taints?: string[];
}

describe('attacks past the sandbox’s edge (spec 8, 8.1)', function () {
  this.timeout(120_000);
  let root: string;
  let workspace: string;
  let pepeHome: string;
  let home: string;
  const listeners: ChildProcess[] = [];

  before(async function () {
    const status = await detectConfinement();
    if (!status.confined) {
      if (process.env.CI) throw new Error(`CI must run the sandbox attacks under real confinement, but: ${status.reason}`);
      console.log(`      (skipped: no confinement here: ${status.reason})`);
      this.skip();
    }
  });

  beforeEach(() => {
    mkdirSync(SCRATCH, { recursive: true });
    root = mkdtempSync(join(SCRATCH, 'pepe-edge-'));
    workspace = join(root, 'project');
    pepeHome = join(root, 'pepe-home');
    home = join(root, 'home');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(pepeHome, { recursive: true });
    mkdirSync(home, { recursive: true });
  });
  afterEach(() => {
    for (const l of listeners.splice(0)) l.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  /** Runs the commands in a fresh host process (confined, or a plain child process as the control). */
  function attack(mode: 'confined' | 'unconfined', commands: string[], extra: { readable?: string[]; writable?: string[]; viaTool?: boolean; env?: Record<string, string> } = {}): Promise<Result[]> {
    const { env: hostEnv, ...rest } = extra;
    const request = JSON.stringify({ mode, workspace, pepeHome, home, runs: commands.map((command) => ({ command })), ...rest });
    return new Promise((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', HOST, request], { env: { PATH: process.env.PATH, HOME: home, ...hostEnv }, maxBuffer: 16 * 1024 * 1024, timeout: 100_000 }, (error, stdout, stderr) => {
        if (error) return reject(new Error(`host failed: ${error.message}\n${stderr}`));
        resolve((JSON.parse(stdout.trim().split('\n').pop()!) as { results: Result[] }).results);
      });
    });
  }

  const put = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  const initRepo = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
  };
  /** A git folder by hand: HEAD, config, objects, refs, hooks. */
  const gitDir = (dir: string) => {
    put(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    put(join(dir, 'config'), '[core]\n\trepositoryformatversion = 0\n');
    mkdirSync(join(dir, 'objects'), { recursive: true });
    mkdirSync(join(dir, 'refs', 'heads'), { recursive: true });
    mkdirSync(join(dir, 'hooks'), { recursive: true });
  };

  // failed against bfd1589: every write below landed (only the top-level .git/config and hooks,
  // and one level of .git/modules, were kept read-only), so the person's next git ran the plant.
  it('planting for the person’s next git fails at any depth: indirections, deep submodules, worktree .git files, nested and bare repositories', async () => {
    git(workspace, 'init', '-q', '-b', 'main');
    git(workspace, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'start');
    git(workspace, 'worktree', 'add', '-q', join(workspace, 'wt'));
    // A repository whose shared configuration is elsewhere (commondir), and one behind a .git file.
    put(join(workspace, 'a', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    put(join(workspace, 'a', '.git', 'commondir'), '../../store\n');
    put(join(workspace, 'store', 'config'), '[core]\n');
    mkdirSync(join(workspace, 'store', 'hooks'), { recursive: true });
    gitDir(join(workspace, 'elsewhere', 'sub'));
    put(join(workspace, 'sub', '.git'), 'gitdir: ../elsewhere/sub\n');
    gitDir(join(workspace, '.git', 'modules', 'a', 'b'));
    initRepo(join(workspace, 'vendor', 'lib'));
    initRepo(join(workspace, 'node_modules', 'pkg'));
    gitDir(join(workspace, 'backup.git'));
    const plant = '[core]\n\tfsmonitor = touch /tmp/pwned\n';
    const targets = [
      join(workspace, 'wt', '.git'),
      join(workspace, '.git', 'worktrees', 'wt', 'commondir'),
      join(workspace, '.git', 'worktrees', 'wt', 'gitdir'),
      join(workspace, 'a', '.git', 'commondir'),
      join(workspace, 'store', 'config'),
      join(workspace, 'sub', '.git'),
      join(workspace, 'elsewhere', 'sub', 'config'),
      join(workspace, '.git', 'modules', 'a', 'b', 'config'),
      join(workspace, 'vendor', 'lib', '.git', 'config'),
      join(workspace, 'node_modules', 'pkg', '.git', 'config'),
      join(workspace, 'backup.git', 'config'),
    ];
    const hooks = [join(workspace, 'store', 'hooks'), join(workspace, '.git', 'modules', 'a', 'b', 'hooks'), join(workspace, 'vendor', 'lib', '.git', 'hooks'), join(workspace, 'elsewhere', 'sub', 'hooks')];
    const before = targets.map((t) => readFileSync(t, 'utf8'));
    const command = [...targets.map((t) => `printf '${plant.replace(/\n/g, '\\n').replace(/\t/g, '\\t')}' >> '${t}'`), ...hooks.map((h) => `printf '#!/bin/sh\\necho pwned\\n' > '${h}/pre-commit'`), 'true'].join('; ');

    await attack('confined', [command]);
    const changed = targets.filter((t, i) => readFileSync(t, 'utf8') !== before[i]);
    const planted = hooks.filter((h) => readdirSync(h).includes('pre-commit'));
    assert.deepEqual([...changed, ...planted], [], 'a file git obeys was written from inside the sandbox');

    await attack('unconfined', [command]);
    assert.equal(targets.filter((t, i) => readFileSync(t, 'utf8') !== before[i]).length, targets.length, 'control: every write works as a plain child process');
  });

  // failed against bfd1589: the command's new repository and its planted commondir went unsaid,
  // and the run stayed untainted.
  it('a repository the command creates, or a git control file it adds, is reported and taints the run', async () => {
    git(workspace, 'init', '-q');
    initRepo(join(workspace, 'vendor', 'lib'));
    const command = `git init -q fresh && printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' >> fresh/.git/config; echo ../../evil > vendor/lib/.git/commondir; echo done`;
    const [r] = await attack('confined', [command], { viaTool: true });
    assert.match(r!.output, /done/);
    assert.ok(r!.output.includes(`this command created a git repository at ${join(workspace, 'fresh')}; git run there obeys its configuration`), r!.output);
    assert.ok(r!.output.includes(`created ${join(workspace, 'vendor', 'lib', '.git', 'commondir')}, which decides what git runs`), r!.output);
    assert.equal(r!.taints?.length, 2, `the run is tainted by both: ${JSON.stringify(r!.taints)}`);
    // An ordinary command says nothing and taints nothing.
    const [plain] = await attack('confined', ['echo hello > notes.txt; git status --short > /dev/null; true'], { viaTool: true });
    assert.doesNotMatch(plain!.output, /\[pepe:/);
    assert.deepEqual(plain!.taints, []);
  });

  // The scan remembers folders' listings between commands (issue 27). Against a version that keyed
  // them on the folder's modification time, the repository planted in `src/deep/er` (its time set
  // back afterwards) went unsaid (test/unit/sandbox/folder-listings.test.ts shows it in process).
  it('a repository planted in a folder the previous command’s scan remembered is still reported, whatever times the command sets back', async () => {
    for (const d of ['src/deep/er', 'other/sub', 'gone']) mkdirSync(join(workspace, d), { recursive: true });
    utimesSync(join(workspace, 'src', 'deep', 'er'), new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    // Folders changed in the last second are never remembered: let them settle, as a real workspace has.
    await new Promise((done) => setTimeout(done, 1200));
    const plant = [
      `mkdir src/deep/er/.git && printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' > src/deep/er/.git/config && touch -m -d '2020-01-01 00:00:00 UTC' src/deep/er`,
      'mkdir -p build/r/.git && mv build/r other/sub/r',
      'rm -rf gone && mkdir -p gone/.git',
      'echo planted',
    ].join(' && ');
    const [first, second] = await attack('confined', ['echo ordinary > notes.txt', plant], { viaTool: true });
    assert.deepEqual(first!.taints, [], 'the first command, ordinary, says nothing');
    assert.match(second!.output, /planted/);
    for (const at of [join(workspace, 'src', 'deep', 'er'), join(workspace, 'other', 'sub', 'r'), join(workspace, 'gone')]) {
      assert.ok(second!.output.includes(`this command created a git repository at ${at};`), `${at} unsaid:\n${second!.output}`);
    }
    assert.equal(statSync(join(workspace, 'src', 'deep', 'er')).mtimeMs, Date.parse('2020-01-01T00:00:00Z'), 'the folder’s time was set back');
  });

  // failed against bfd1589: each of these was readable (the hide-list did not name them).
  it('the home folder is hidden but for the toolchains: credentials in places no hide-list knew stay unreadable', async () => {
    const secrets: Record<string, string> = {
      'code-server data': join(home, '.local', 'share', 'code-server', 'User', 'globalStorage', 'state.vscdb'),
      'Code - OSS data': join(home, '.config', 'Code - OSS', 'User', 'globalStorage', 'state.vscdb'),
      'VS Code OSS extensions': join(home, '.vscode-oss', 'argv.json'),
      '$XDG_CONFIG_HOME/gh elsewhere': join(root, 'xdg', 'gh', 'hosts.yml'),
      '$KUBECONFIG': join(root, 'clusters', 'admin.conf'),
      'a model server key': join(home, '.ollama', 'id_ed25519'),
      'sops age keys': join(home, '.config', 'sops', 'age', 'keys.txt'),
      'Cloudflare wrangler token': join(home, '.wrangler', 'config', 'default.toml'),
    };
    for (const [name, p] of Object.entries(secrets)) put(p, `SECRET-MARKER ${name}\n`);
    put(join(home, '.cargo', 'bin', 'tool'), 'TOOLCHAIN-MARKER\n');
    put(join(home, '.gitconfig'), '[user]\n\tname = GITCONFIG-MARKER\n');
    put(join(home, 'notes', 'shared.txt'), 'READABLE-MARKER\n');
    const env = { XDG_CONFIG_HOME: join(root, 'xdg'), KUBECONFIG: `${join(root, 'clusters', 'admin.conf')}:${join(root, 'missing.conf')}` };
    const command = [...Object.values(secrets).map((p) => `cat '${p}'`), `cat ~/.cargo/bin/tool ~/.gitconfig ~/notes/shared.txt`, 'echo "HOME-LISTING:$(ls -A ~ | tr "\\n" " ")"', 'true'].join('; ');
    const [r] = await attack('confined', [command], { env, readable: ['~/notes'] });
    const leaked = Object.entries(secrets).filter(([name]) => r!.output.includes(`SECRET-MARKER ${name}`)).map(([name]) => name);
    assert.deepEqual(leaked, [], `readable inside the sandbox: ${leaked.join(', ')}`);
    assert.match(r!.output, /TOOLCHAIN-MARKER/, 'a toolchain under home is visible');
    assert.match(r!.output, /GITCONFIG-MARKER/, '~/.gitconfig is visible');
    assert.match(r!.output, /READABLE-MARKER/, 'what sandbox.readable names is visible');
    const [control] = await attack('unconfined', [command], { env });
    assert.equal(Object.keys(secrets).filter((name) => control!.output.includes(`SECRET-MARKER ${name}`)).length, Object.keys(secrets).length, 'control: all readable as a plain child process');
  });

  // failed against bfd1589: the command connected to every one of these sockets (a read-only
  // mount does not stop a connection to a unix socket).
  it('host unix sockets are unreachable unless named: under home, in $XDG_RUNTIME_DIR elsewhere, elsewhere on the disk, in the workspace', async () => {
    const sockets = {
      'password-manager agent under home': join(home, '.1password', 'agent.sock'),
      'gpg agent under home': join(home, '.gnupg', 'S.gpg-agent'),
      '$XDG_RUNTIME_DIR elsewhere': join(root, 'runtime', 'bus'),
      'a daemon elsewhere on the disk': join(root, 'var', 'daemon.sock'),
      'a socket in the workspace': join(workspace, 'dev.sock'),
    };
    for (const p of Object.values(sockets)) await listen(p);
    const connect = (p: string) => `python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.settimeout(2); s.connect(sys.argv[1]); print('CONNECTED', sys.argv[1])" '${p}' 2>/dev/null`;
    const command = [...Object.values(sockets).map(connect), 'true'].join('; ');
    const env = { XDG_RUNTIME_DIR: join(root, 'runtime') };
    const [r] = await attack('confined', [command], { env });
    const reached = Object.entries(sockets).filter(([, p]) => r!.output.includes(`CONNECTED ${p}`)).map(([name]) => name);
    assert.deepEqual(reached, [], `reachable inside the sandbox: ${reached.join(', ')}`);
    // Named in sandbox.readable, a socket is reachable.
    const named = sockets['a daemon elsewhere on the disk'];
    const [allowed] = await attack('confined', [connect(named)], { env, readable: [named] });
    assert.match(allowed!.output, /CONNECTED/, 'a socket the person named is reachable');
    const [control] = await attack('unconfined', [command], { env });
    assert.equal(Object.values(sockets).filter((p) => control!.output.includes(`CONNECTED ${p}`)).length, Object.keys(sockets).length, 'control: every socket reachable as a plain child process');
  });

  // Failed before (it passed only where the checkout was outside /tmp): every socket under /tmp was
  // taken for one the command cannot see, since it gets a private /tmp, but a workspace under /tmp
  // is bound into that private /tmp, sockets and all.
  it('a socket in a workspace under /tmp (a repository cloned there) is unreachable too', async () => {
    const tmpRoot = mkdtempSync('/tmp/pepe-edge-tmp-');
    const outside = workspace;
    workspace = join(tmpRoot, 'project');
    mkdirSync(workspace);
    try {
      const sock = join(workspace, 'dev.sock');
      await listen(sock);
      const connect = `python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.settimeout(2); s.connect(sys.argv[1]); print('CONNECTED')" '${sock}' 2>&1; true`;
      const [r] = await attack('confined', [connect]);
      assert.doesNotMatch(r!.output, /CONNECTED/, `reachable inside the sandbox: ${r!.output}`);
      const [control] = await attack('unconfined', [connect]);
      assert.match(control!.output, /CONNECTED/, 'control: reachable as a plain child process');
    } finally {
      for (const l of listeners.splice(0)) l.kill('SIGKILL');
      workspace = outside;
      rmSync(tmpRoot, { recursive: true, force: true });
    }
  });

  /** A host process listening on a unix socket at `path` until the test ends. */
  async function listen(path: string): Promise<void> {
    mkdirSync(join(path, '..'), { recursive: true });
    const child = spawn('python3', ['-c', 'import socket,sys,time\ns=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); print("ready", flush=True)\nwhile True:\n  c,_=s.accept(); c.close()', path], { stdio: ['ignore', 'pipe', 'inherit'] });
    listeners.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`listener on ${path} exited ${code}`)));
    });
  }
});
