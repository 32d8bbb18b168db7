import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bubblewrapArgs, confinedCommand, sandboxPolicy, type ConfinementPolicy } from '../../../src/core/sandbox/index.js';
import { orderedMounts } from '../../../src/core/sandbox/policy.js';

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

  it('the workspace is the one writable place; .git/config and .git/hooks stay read-only; secrets in HOME and $PEPE_HOME are hidden', () => {
    const p = sandboxPolicy({ workspace: ws, pepeHome, home, network: false });
    // .git is bound onto itself (a mount point cannot be renamed away): still writable.
    assert.deepEqual(p.writable, [ws, join(ws, '.git')]);
    assert.deepEqual(p.readOnly.sort(), [join(ws, '.git', 'config'), join(ws, '.git', 'hooks')].sort());
    assert.deepEqual(p.hidden.sort(), [join(home, '.config', 'gh'), join(home, '.netrc'), join(home, '.ssh'), pepeHome].sort());
    assert.equal(p.network, false);
    assert.equal(p.cwd, ws);
    assert.ok(p.maxProcesses && p.maxProcesses > 0);
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

  it('a workspace that is the home folder keeps every dotfile read-only and $PEPE_HOME hidden', () => {
    const p = sandboxPolicy({ workspace: home, pepeHome, home, network: false });
    assert.ok(p.readOnly.includes(join(home, '.gitconfig')));
    assert.ok(p.hidden.includes(pepeHome));
    assert.ok(!p.readOnly.includes(join(home, '.ssh')), 'a hidden entry is not also read-only');
    const order = orderedMounts(p).map((m) => `${m.kind}:${m.path}`);
    assert.ok(order.indexOf(`writable:${home}`) < order.indexOf(`hidden:${pepeHome}`), 'the deeper rule comes later and wins');
  });

  it('a secret folder reached through a link is hidden at both ends', () => {
    const real = join(root, 'elsewhere-aws');
    mkdirSync(real);
    symlinkSync(real, join(home, '.aws'));
    const p = sandboxPolicy({ workspace: ws, home, network: false });
    assert.ok(p.hidden.includes(join(home, '.aws')) && p.hidden.includes(real));
  });

  it('at the same path the more restrictive rule wins (applied last)', () => {
    const p: ConfinementPolicy = { cwd: ws, writable: [ws], readOnly: [ws], hidden: [ws], network: false };
    assert.deepEqual(orderedMounts(p).map((m) => m.kind), ['writable', 'readOnly', 'hidden']);
  });

  it('bubblewrap: namespaces, no capabilities, network only when allowed, everything dies with it', () => {
    const p = sandboxPolicy({ workspace: ws, pepeHome, home, network: false });
    const args = bubblewrapArgs(p, ['true']);
    for (const flag of ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent', '--new-session', '--disable-userns']) assert.ok(args.includes(flag), flag);
    assert.equal(args[args.indexOf('--cap-drop') + 1], 'ALL');
    assert.deepEqual(args.slice(args.indexOf('--ro-bind'), args.indexOf('--ro-bind') + 3), ['--ro-bind', '/', '/']);
    assert.ok(args.join(' ').includes(`--bind ${ws} ${ws}`));
    assert.ok(args.join(' ').includes(`--ro-bind /dev/null ${join(home, '.netrc')}`));
    assert.ok(args.join(' ').includes(`--tmpfs ${pepeHome}`) && args.join(' ').includes(`--remount-ro ${pepeHome}`));
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
