import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { acquireFileLock, FileLockBusyError, withFileLock } from '../../../src/core/file-lock.js';

const ROOT = join(import.meta.dirname, '../../..');
const WORKER = join(ROOT, 'test/unit/helpers/file-lock-worker.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function worker(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await sleep(20);
  }
  return check();
}

/** A lock folder left by a holder that is gone: not touched for an hour. */
function staleLock(path: string): void {
  mkdirSync(path);
  const old = new Date(Date.now() - 3600_000);
  utimesSync(path, old, old);
}

/** A dead process's pid (it has exited and been waited for). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('close', r));
  return child.pid!;
}

describe('a lock between processes (core/file-lock)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-lock-'));
    writeFileSync(join(dir, 'counter'), '0');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * Waiter B has judged the lock stale and stops just before taking it away; waiter A comes, and
   * B goes on while A would be inside. Removing what was judged stale without looking again let
   * both in (the library this replaced: a write to config.json was lost under load).
   */
  async function pausedRemoval(impl: 'pepe' | 'naive') {
    const lock = join(dir, 'lk');
    staleLock(lock);
    // `stale` well above how long B is kept stopped (the lock itself is an hour old): a remover
    // stopped longer than `stale` is taken to be gone, like any holder.
    const b = worker({ LOCK: lock, DIR: dir, IMPL: impl, PAUSE_REMOVE: '1', HOLD_MS: '30', STALE_MS: '20000' });
    assert.ok(await until(() => existsSync(join(dir, 'paused')), 30_000), 'B reached the removal');
    const a = worker({ LOCK: lock, DIR: dir, IMPL: impl, HOLD_MS: '1500', STALE_MS: '20000' });
    const aInsideFirst = await until(() => existsSync(join(dir, 'inside')), 3000);
    writeFileSync(join(dir, 'go'), '');
    const [ra, rb] = await Promise.all([a, b]);
    return {
      aInsideFirst,
      exits: [ra.code, rb.code],
      counter: Number(readFileSync(join(dir, 'counter'), 'utf8')),
      overlaps: existsSync(join(dir, 'overlaps')),
      stderr: ra.stderr + rb.stderr,
    };
  }

  it('attack: a waiter stopped between judging a lock stale and removing it does not let a second holder in', async () => {
    const r = await pausedRemoval('pepe');
    assert.deepEqual(r.exits, [0, 0], r.stderr);
    assert.equal(r.aInsideFirst, false, 'A got in while B was removing the stale lock');
    assert.equal(r.overlaps, false, 'two holders at once');
    assert.equal(r.counter, 2, 'a write was lost');
  });

  it('the same check catches a lock that removes what it judged stale without looking again (not vacuous)', async () => {
    const r = await pausedRemoval('naive');
    assert.equal(r.aInsideFirst, true);
    assert.equal(r.overlaps, true);
    assert.equal(r.counter, 1);
  });

  it('twelve processes at once on a stale lock: one at a time, nothing lost, nothing left behind', async () => {
    const lock = join(dir, 'lk');
    staleLock(lock);
    const startAt = String(Date.now() + 4000); // after every worker has loaded
    const runs = await Promise.all(Array.from({ length: 12 }, () => worker({ LOCK: lock, DIR: dir, IMPL: 'pepe', START_AT: startAt, HOLD_MS: '20' })));
    assert.deepEqual(runs.map((r) => r.code), Array(12).fill(0), runs.map((r) => r.stderr).join('\n'));
    assert.equal(existsSync(join(dir, 'overlaps')), false, 'two holders at once');
    assert.equal(readFileSync(join(dir, 'counter'), 'utf8'), '12');
    assert.deepEqual(readdirSync(dir).sort(), ['counter']);
  });

  it('held: another is refused (retries 0) or waits; released: taken at once; nothing left behind', async () => {
    const path = join(dir, 'lk');
    const first = await acquireFileLock(path, { stale: 5000, retries: 0 });
    await assert.rejects(acquireFileLock(path, { stale: 5000, retries: 0 }), (e: unknown) => e instanceof FileLockBusyError && e.code === 'ELOCKED');
    const waiting = acquireFileLock(path, { stale: 5000, retries: { retries: 100, minTimeout: 5, maxTimeout: 20 } });
    await sleep(100);
    assert.equal(first.held, true);
    await first.release();
    const second = await waiting;
    assert.equal(second.held, true);
    await second.release();
    assert.deepEqual(readdirSync(dir).sort(), ['counter']);
  });

  it('a lock whose holder process is gone is taken at once; one whose holder lives is not, however it was left', async () => {
    const path = join(dir, 'lk');
    const here = { host: hostname(), boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), pidns: readlinkSync('/proc/self/ns/pid') };
    const record = (pid: number, where: Partial<typeof here> = {}) => JSON.stringify({ id: 'someone', pid, ...here, ...where });
    mkdirSync(path);
    writeFileSync(join(path, 'owner'), record(await deadPid()));
    const taken = await acquireFileLock(path, { stale: 60_000, retries: 0 });
    await taken.release();

    mkdirSync(path);
    writeFileSync(join(path, 'owner'), record(process.pid)); // alive (this process), another holder's id
    await assert.rejects(acquireFileLock(path, { stale: 60_000, retries: 0 }), FileLockBusyError);
    // A holder on another machine (even of the same name), another boot or pid namespace is judged by age alone.
    for (const where of [{ host: 'elsewhere' }, { boot: 'another-boot' }, { pidns: 'pid:[1]' }]) {
      writeFileSync(join(path, 'owner'), record(await deadPid(), where));
      await assert.rejects(acquireFileLock(path, { stale: 60_000, retries: 0 }), FileLockBusyError, JSON.stringify(where));
    }
    const old = new Date(Date.now() - 120_000);
    utimesSync(path, old, old);
    const aged = await acquireFileLock(path, { stale: 60_000, retries: 0 });
    await aged.release();
  });

  it('a holder that stalled past `stale` releases while a remover is taking its lock away: one holder at a time, nothing left', async () => {
    const lock = join(dir, 'lk');
    // It has held the lock for more than half its `stale` when it releases (the remover's lock, held
    // by the stopped remover, is not stale to it within the test's window); the others find it
    // stale by its mtime, set an hour back (a holder that stalled, not touching it).
    const stalled = await acquireFileLock(lock, { stale: 3000, update: 1e9, retries: 0 });
    const old = new Date(Date.now() - 3600_000);
    utimesSync(lock, old, old);
    await sleep(1600);
    const r = worker({ LOCK: lock, DIR: dir, IMPL: 'pepe', PAUSE_REMOVE: '1', HOLD_MS: '30', STALE_MS: '20000' });
    assert.ok(await until(() => existsSync(join(dir, 'paused')), 30_000), 'the remover reached the removal');
    const releasing = stalled.release();
    const w = worker({ LOCK: lock, DIR: dir, IMPL: 'pepe', HOLD_MS: '300', STALE_MS: '20000' });
    const wInsideFirst = await until(() => existsSync(join(dir, 'inside')), 1500);
    writeFileSync(join(dir, 'go'), '');
    const runs = await Promise.all([r, w]);
    await releasing;
    assert.deepEqual(runs.map((x) => x.code), [0, 0], runs.map((x) => x.stderr).join('\n'));
    assert.equal(wInsideFirst, false, 'a waiter got in while the lock was being removed');
    assert.equal(existsSync(join(dir, 'overlaps')), false, 'two holders at once');
    assert.equal(readFileSync(join(dir, 'counter'), 'utf8'), '2');
    assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith('lk')), []);
  });

  it('attack: a FIFO, a link or a huge file planted as the holder’s record neither blocks nor is followed', async () => {
    const path = join(dir, 'lk');
    mkdirSync(path);
    execFileSync('mkfifo', [join(path, 'owner')]);
    const settled = await Promise.race([
      acquireFileLock(path, { stale: 60_000, retries: 0 }).then(
        () => 'taken',
        (e: Error) => (e instanceof FileLockBusyError ? 'busy' : e.message),
      ),
      sleep(5000).then(() => 'still waiting'),
    ]);
    assert.equal(settled, 'busy');
    rmSync(join(path, 'owner'));
    symlinkSync('/dev/zero', join(path, 'owner'));
    await assert.rejects(acquireFileLock(path, { stale: 60_000, retries: 0 }), FileLockBusyError);
    rmSync(join(path, 'owner'));
    writeFileSync(join(path, 'owner'), 'x'.repeat(10_000_000));
    await assert.rejects(acquireFileLock(path, { stale: 60_000, retries: 0 }), FileLockBusyError);
  });

  it('what a killed process left next to the lock is cleared on a release once older than `stale`; nothing else is', async () => {
    const path = join(dir, 'lk');
    const old = new Date(Date.now() - 120_000);
    for (const name of ['lk.new-999999-0a1b2c', 'lk.old-12-ff00', 'lk.gc.new-7-abc']) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'owner'), '{}');
      utimesSync(join(dir, name), old, old);
    }
    mkdirSync(join(dir, 'lk.new-5-aa')); // young: perhaps a live process's, mid-way
    mkdirSync(join(dir, 'lk.newer'));
    utimesSync(join(dir, 'lk.newer'), old, old);
    const lock = await acquireFileLock(path, { stale: 60_000, retries: 0 });
    await lock.release();
    assert.deepEqual(readdirSync(dir).sort(), ['counter', 'lk.new-5-aa', 'lk.newer']);
  });

  it('the holder keeps it fresh while it works longer than `stale`', async () => {
    const path = join(dir, 'lk');
    let other: Error | undefined;
    await withFileLock(path, { stale: 1000, update: 50, retries: 0 }, async (held) => {
      await sleep(2500);
      other = await acquireFileLock(path, { stale: 1000, retries: 0 }).then(
        () => undefined,
        (e: Error) => e,
      );
      assert.equal(held.held, true);
    });
    assert.ok(other instanceof FileLockBusyError, 'the lock was taken from a live holder that kept it fresh');
  });

  it('a holder that stalled past `stale` learns it lost the lock, and its release leaves the new holder’s lock alone', async () => {
    const path = join(dir, 'lk');
    const stalled = await acquireFileLock(path, { stale: 300, update: 100_000, retries: 0 });
    await sleep(400);
    const next = await acquireFileLock(path, { stale: 300, update: 50, retries: 0 });
    assert.equal(await stalled.verify(), false);
    assert.equal(stalled.held, false);
    assert.equal(await next.verify(), true);
    await stalled.release();
    assert.ok(existsSync(join(path, 'owner')), 'the new holder’s lock was removed');
    await assert.rejects(acquireFileLock(path, { stale: 300, retries: 0 }), FileLockBusyError);
    assert.equal(next.held, true);
    await next.release();
  });
});
