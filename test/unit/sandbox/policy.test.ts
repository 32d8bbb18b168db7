import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bubblewrapArgs, confinedCommand, sandboxPolicy, type ConfinementPolicy } from '../../../src/core/sandbox/index.js';
import { kindAt, orderedMounts } from '../../../src/core/sandbox/policy.js';
import { pluginPolicy } from '../../../src/core/plugins/sandboxing.js';

describe('confinement policy (spec 3.5)', () => {
  let root: string;
  let ws: string;
  let home: string;
  let pepeHome: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pepe-policy-'));
    ws = join(root, 'ws');
    home = join(root, 'home');
    pepeHome = join(home, '.pepe');
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(ws, '.git', 'config'), '');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    mkdirSync(join(home, '.config', 'gh'), { recursive: true });
    mkdirSync(pepeHome, { recursive: true });
    writeFileSync(join(home, '.netrc'), 'machine x');
    writeFileSync(join(home, '.gitconfig'), '');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('the workspace is the one writable place; .git/config and .git/hooks stay read-only; the home folder and $PEPE_HOME are hidden, toolchains shown read-only', () => {
    const p = sandboxPolicy({ workspace: ws, pepeHome, home, network: false, sockets: [] });
    // .git is bound onto itself (a mount point cannot be renamed away): still writable.
    assert.deepEqual(p.writable, [ws, join(ws, '.git')]);
    assert.deepEqual(p.readOnly.sort(), [join(home, '.gitconfig'), join(ws, '.git', 'config'), join(ws, '.git', 'hooks')].sort());
    assert.deepEqual(p.hidden.sort(), [home, pepeHome].sort());
    assert.equal(kindAt(p, join(home, '.ssh', 'id_ed25519')), 'hidden');
    assert.equal(kindAt(p, join(home, '.config', 'gh', 'hosts.yml')), 'hidden');
    assert.equal(kindAt(p, join(home, '.gitconfig')), 'readOnly');
    assert.equal(p.network, false);
    assert.equal(p.cwd, ws);
    assert.ok(p.maxProcesses && p.maxProcesses > 0);
  });

  it('what the person adds (sandbox.readable, sandbox.writable, with ~) shows through the hidden home; missing places are skipped', () => {
    mkdirSync(join(home, 'notes'));
    mkdirSync(join(home, 'out'));
    const p = sandboxPolicy({ workspace: ws, home, network: false, readable: ['~/notes', '~/absent'], writable: [join(home, 'out')], sockets: [] });
    assert.equal(kindAt(p, join(home, 'notes', 'a.txt')), 'readOnly');
    assert.equal(kindAt(p, join(home, 'out', 'b.txt')), 'writable');
    assert.equal(kindAt(p, join(home, 'absent')), 'hidden');
    assert.equal(kindAt(p, join(home, '.netrc')), 'hidden');
  });

  it('places the host variables name are hidden wherever they are ($XDG_CONFIG_HOME, each file in $KUBECONFIG)', () => {
    mkdirSync(join(root, 'xdg'));
    writeFileSync(join(root, 'kube.conf'), 'k');
    const p = sandboxPolicy({ workspace: ws, home, network: false, hostEnv: { XDG_CONFIG_HOME: join(root, 'xdg'), KUBECONFIG: `${join(root, 'kube.conf')}:relative.conf`, SSH_AUTH_SOCK: '/' }, sockets: [] });
    assert.equal(kindAt(p, join(root, 'xdg', 'gh', 'hosts.yml')), 'hidden');
    assert.equal(kindAt(p, join(root, 'kube.conf')), 'hidden');
    assert.ok(!p.hidden.includes('/'), 'never the root itself');
  });

  it('a host socket a command could reach is covered, unless the person named it; one already hidden is left alone', async () => {
    const { createServer } = await import('node:net');
    // Outside /tmp, which a confined command has a private copy of (no host socket there): the
    // checkout itself may be under /tmp.
    const scratch = existsSync('/var/tmp') ? '/var/tmp' : join(import.meta.dirname, '../../../.test-tmp');
    mkdirSync(scratch, { recursive: true });
    const place = mkdtempSync(join(scratch, 'pepe-sockets-'));
    const servers = [join(place, 'daemon.sock'), join(home, 'agent.sock'), join(place, 'named.sock')].map((path) => {
      const s = createServer();
      s.listen(path);
      return { s, path };
    });
    await new Promise((r) => setTimeout(r, 50));
    try {
      const p = sandboxPolicy({ workspace: ws, home, network: false, readable: [join(place, 'named.sock')], sockets: servers.map((x) => x.path).concat(['relative.sock', join(place, 'not-a-socket')]) });
      assert.ok(p.hidden.includes(join(place, 'daemon.sock')));
      assert.ok(!p.hidden.includes(join(home, 'agent.sock')), 'under the hidden home already');
      assert.ok(!p.hidden.includes(join(place, 'named.sock')), 'named by the person');
    } finally {
      for (const x of servers) x.s.close();
      rmSync(place, { recursive: true, force: true });
    }
  });

  // Failed before: a socket under /tmp was taken for one the command cannot see (it gets a private
  // /tmp), even inside a workspace bound in from there, so a repository cloned under /tmp kept its
  // sockets reachable.
  it('a socket in a workspace under /tmp is covered; one elsewhere in /tmp is not (the command has its own /tmp)', async () => {
    const { createServer } = await import('node:net');
    const base = mkdtempSync('/tmp/pepe-policy-tmp-');
    const workspace = join(base, 'ws');
    mkdirSync(workspace);
    const inside = join(workspace, 'dev.sock');
    const outside = join(base, 'elsewhere.sock');
    const servers = [inside, outside].map((path) => createServer().listen(path));
    await new Promise((r) => setTimeout(r, 50));
    try {
      const p = sandboxPolicy({ workspace, home, network: false, sockets: [inside, outside] });
      assert.ok(p.hidden.includes(inside), 'the workspace socket is covered');
      assert.ok(!p.hidden.includes(outside), 'the private /tmp has no such socket: nothing to cover');
    } finally {
      for (const s of servers) s.close();
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('hooks kept in the working tree (core.hooksPath) and in submodules stay read-only too', () => {
    mkdirSync(join(ws, '.husky'));
    writeFileSync(join(ws, '.git', 'config'), '[core]\n\thooksPath = .husky\n');
    mkdirSync(join(ws, '.git', 'modules', 'lib', 'hooks'), { recursive: true });
    writeFileSync(join(ws, '.git', 'modules', 'lib', 'config'), '');
    const p = sandboxPolicy({ workspace: ws, network: false });
    for (const q of [join(ws, '.husky'), join(ws, '.git', 'modules', 'lib', 'hooks'), join(ws, '.git', 'modules', 'lib', 'config')]) assert.ok(p.readOnly.includes(q), q);
    assert.ok(p.writable.includes(join(ws, '.git', 'modules', 'lib')), 'the submodule folder is pinned');
  });

  it('a missing .git/hooks is hidden (an empty read-only folder), so no hook can be planted', () => {
    rmSync(join(ws, '.git', 'hooks'), { recursive: true });
    const p = sandboxPolicy({ workspace: ws, network: false });
    assert.ok(p.hidden.includes(join(ws, '.git', 'hooks')));
  });

  it('a workspace that is the home folder hides every dotfile but the toolchains, and $PEPE_HOME', () => {
    mkdirSync(join(home, '.nvm'));
    const p = sandboxPolicy({ workspace: home, pepeHome, home, network: false, sockets: [] });
    assert.equal(kindAt(p, join(home, '.gitconfig')), 'readOnly');
    assert.equal(kindAt(p, join(home, '.nvm', 'x')), 'readOnly');
    assert.equal(kindAt(p, join(home, '.ssh', 'id_rsa')), 'hidden');
    assert.equal(kindAt(p, pepeHome), 'hidden');
    assert.equal(kindAt(p, join(home, 'project', 'a.ts')), 'writable');
    const order = orderedMounts(p).map((m) => `${m.kind}:${m.path}`);
    assert.ok(order.indexOf(`writable:${home}`) < order.indexOf(`hidden:${pepeHome}`), 'the deeper rule comes later and wins');
  });

  it('a home folder reached through a link is hidden at both ends', () => {
    const realHome = join(root, 'real-home');
    mkdirSync(realHome);
    symlinkSync(realHome, join(root, 'home-link'));
    const p = sandboxPolicy({ workspace: ws, home: join(root, 'home-link'), network: false, sockets: [] });
    assert.ok(p.hidden.includes(join(root, 'home-link')) && p.hidden.includes(realHome));
  });

  it('plugins get the same home policy: the home folder hidden but for the toolchains, their own file readable', () => {
    const file = join(pepeHome, 'plugins', 'p.mjs');
    mkdirSync(join(pepeHome, 'plugins'), { recursive: true });
    writeFileSync(file, '');
    const p = pluginPolicy(pepeHome, file, join(root, 'data'), false);
    const h = homedir();
    if (existsSync(h)) {
      assert.equal(kindAt(p, join(h, '.ollama', 'id_ed25519')), 'hidden');
      assert.equal(kindAt(p, join(h, '.local', 'share', 'code-server', 'x')), 'hidden');
    }
    assert.equal(kindAt(p, file), 'readOnly');
  });

  it('at the same path the more restrictive rule wins (applied last)', () => {
    const p: ConfinementPolicy = { cwd: ws, writable: [ws], readOnly: [ws], hidden: [ws], network: false };
    assert.deepEqual(orderedMounts(p).map((m) => m.kind), ['writable', 'readOnly', 'hidden']);
  });

  it('bubblewrap: namespaces, no capabilities, network only when allowed, everything dies with it', () => {
    const p = sandboxPolicy({ workspace: ws, pepeHome, home, network: false, sockets: [] });
    const args = bubblewrapArgs(p, ['true']);
    for (const flag of ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent', '--new-session', '--disable-userns']) assert.ok(args.includes(flag), flag);
    assert.equal(args[args.indexOf('--cap-drop') + 1], 'ALL');
    assert.deepEqual(args.slice(args.indexOf('--ro-bind'), args.indexOf('--ro-bind') + 3), ['--ro-bind', '/', '/']);
    assert.ok(args.join(' ').includes(`--bind ${ws} ${ws}`));
    assert.ok(args.join(' ').includes(`--tmpfs ${home}`) && args.join(' ').includes(`--remount-ro ${home}`));
    assert.ok(args.join(' ').includes(`--ro-bind ${join(home, '.gitconfig')} ${join(home, '.gitconfig')}`));
    assert.deepEqual(args.slice(-4), ['--chdir', ws, '--', 'true']);
    assert.ok(!bubblewrapArgs({ ...p, network: true }, ['true']).includes('--unshare-net'));
  });

  it('confinedCommand: bubblewrap on Linux, sandbox-exec on macOS, and refuses elsewhere rather than run unconfined', () => {
    const p = sandboxPolicy({ workspace: ws, network: false });
    assert.match(confinedCommand(p, ['true'], 'linux').file, /bwrap$/);
    const mac = confinedCommand(p, ['true'], 'darwin');
    assert.equal(mac.file, '/usr/bin/sandbox-exec');
    assert.equal(mac.args[0], '-p');
    assert.throws(() => confinedCommand(p, ['true'], 'win32'), /no confinement backend for win32/);
    assert.throws(() => confinedCommand(p, [], 'linux'), /needs a program/);
  });
});
