/**
 * What a confined command prints is the command's output, never Pepe's word about the sandbox:
 * a command that prints what bubblewrap prints when it cannot start (`bwrap: …`, exit 1) must not
 * make Pepe say the command did not run (it did; the model would run it again), nor make Pepe drop
 * its stored confinement answer. A real failure to start still says so. Both ways a command
 * starts: directly, and (as root) through the bubblewrap kept waiting.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectConfinement, processLimitMethod } from '../../../src/core/sandbox/index.js';
import { BuiltinSandbox } from '../../../src/core/slots/builtin/sandbox.js';
import { recordAttacks } from './record.js';

const NOTICE = /\[pepe: the sandbox could not start this command; it did not run\]/;
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

describe('attacks: a confined command claiming the sandbox did not start (spec 3.5)', function () {
  this.timeout(120_000);
  recordAttacks('sandbox attacks (a forged start failure)', "a command's own `bwrap: …` output and exit 1 are its own; only a real failure to start is reported as one");
  let root: string;
  let ws: string;
  let cache: string | undefined;

  before(async function () {
    const status = await detectConfinement();
    if (!status.confined) {
      if (process.env.CI) throw new Error(`CI must run the sandbox attacks under real confinement, but: ${status.reason}`);
      this.skip();
    }
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pepe-start-claim-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
    // A failed start drops the stored confinement answer: a scratch one, not this user's.
    cache = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = join(root, 'cache');
  });
  afterEach(() => {
    if (cache === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = cache;
    rmSync(root, { recursive: true, force: true });
  });

  for (const way of ['directly', 'through the bubblewrap kept waiting'] as const) {
    it(`${way}: a command printing bubblewrap's failure and exiting 1 is reported as what it is; a real failure still says so`, async function () {
      if (way !== 'directly' && processLimitMethod() !== 'cgroup') this.skip();
      const sandbox = new BuiltinSandbox(() => undefined, { pepeHome: join(root, 'pepe'), home: root, maxProcesses: 50 });
      const env = { PATH: '/usr/bin:/bin' };
      const ready = async () => {
        if (way === 'directly') return;
        await sandbox.warmUp();
        for (let i = 0; i < 100 && !(sandbox as unknown as { warm: unknown }).warm; i++) await sleep(10);
        assert.ok((sandbox as unknown as { warm: unknown }).warm, 'no bubblewrap was waiting');
      };
      try {
        const ran = join(ws, 'ran.txt');
        await ready();
        const forged = await sandbox.run('sh', ['-c', `touch ${ran}; echo "bwrap: Can't chdir to /nowhere: No such file or directory"; exit 1`], { cwd: ws, workspace: ws, env, timeoutMs: 20_000 });
        assert.equal(existsSync(ran), true, 'the command ran');
        assert.equal(forged.exitStatus, 1);
        assert.equal(forged.output, "bwrap: Can't chdir to /nowhere: No such file or directory\n", 'its output, as it printed it');
        assert.doesNotMatch(forged.output, NOTICE);

        // bubblewrap cannot enter a working folder that is not there: its message, the notice, nothing run.
        const marker = join(ws, 'second.txt');
        if (way !== 'directly') await ready();
        const failed = await sandbox.run('touch', [marker], { cwd: join(ws, 'gone'), workspace: ws, env, timeoutMs: 20_000 });
        assert.match(failed.output, /^bwrap: .*gone/);
        assert.match(failed.output, NOTICE);
        assert.equal(failed.exitStatus, 1);
        assert.equal(existsSync(marker), false);
      } finally {
        sandbox.dispose();
      }
    });
  }
});
