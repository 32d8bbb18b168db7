// A process that takes a lock and, inside it, checks nobody else is inside, reads a counter,
// waits, and writes it plus one. Used by test/unit/core/file-lock.test.ts. Environment:
//   LOCK, DIR      the lock's path and the folder holding `counter`
//   START_AT       epoch ms to wait for (so several workers try at the same instant)
//   HOLD_MS        how long to stay inside
//   STALE_MS       the lock's `stale` (default 2000)
//   IMPL           'pepe' (core/file-lock) or 'naive' (a stale lock judged, removed, then made
//                  again, as the library core/file-lock replaced did: the check that the test can fail)
//   PAUSE_REMOVE   when set: stop just before removing the lock found stale (writes DIR/paused,
//                  waits for DIR/go), the instant where two waiters used to both take it
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';

const env = process.env as Record<string, string>;
const LOCK = env.LOCK!;
const DIR = env.DIR!;
const inDir = (name: string) => join(DIR, name);

if (env.PAUSE_REMOVE) {
  const pause = () => {
    fs.writeFileSync(inDir('paused'), '');
    while (!fs.existsSync(inDir('go'))) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  };
  let paused = false;
  const once = (path: unknown) => {
    if (!paused && String(path) === LOCK) {
      paused = true;
      pause();
    }
  };
  const rmdir = fs.rmdir;
  fs.rmdir = ((path: fs.PathLike, ...rest: unknown[]) => {
    once(path);
    return (rmdir as (...a: unknown[]) => void)(path, ...rest);
  }) as typeof fs.rmdir;
  const renameSync = fs.renameSync;
  fs.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    once(from);
    renameSync(from, to);
  };
  const rename = fs.promises.rename;
  fs.promises.rename = async (from, to) => {
    once(from);
    return rename(from, to);
  };
  syncBuiltinESMExports();
}

const stale = Number(env.STALE_MS ?? 2000);
const retries = { retries: 400, factor: 1.2, minTimeout: 5, maxTimeout: 50, randomize: true };
while (Date.now() < Number(env.START_AT ?? 0)) {
  // all workers leave this loop at the same instant
}
let release: () => Promise<void>;
if (env.IMPL === 'naive') {
  for (;;) {
    try {
      await fs.promises.mkdir(LOCK);
      break;
    } catch {
      const s = await fs.promises.stat(LOCK).catch(() => undefined);
      if (s && s.mtimeMs < Date.now() - stale) await fs.promises.rename(LOCK, `${LOCK}.old-${process.pid}`).catch(() => undefined);
      else await new Promise((r) => setTimeout(r, 5));
    }
  }
  release = () => fs.promises.rmdir(LOCK).catch(() => undefined);
} else {
  const { acquireFileLock } = await import('../../../src/core/file-lock.js');
  const lock = await acquireFileLock(LOCK, { stale, retries });
  release = () => lock.release();
}
try {
  fs.mkdirSync(inDir('inside'));
} catch {
  fs.appendFileSync(inDir('overlaps'), `${process.pid}\n`);
}
const n = Number(fs.readFileSync(inDir('counter'), 'utf8'));
await new Promise((r) => setTimeout(r, Number(env.HOLD_MS ?? 30)));
fs.writeFileSync(inDir('counter'), String(n + 1));
fs.rmSync(inDir('inside'), { recursive: true, force: true });
await release();
