/**
 * Plugin escapes (issue 12): a hostile plugin, loaded the way Pepe loads any plugin, tries to read
 * the host's secrets, rewrite the configuration, write outside its data folder, leave a daemon,
 * kill the host, flood the log, send an oversized answer and loop. Each case checks the world
 * outside the plugin (files, processes, the host), not only what the plugin reports.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PluginCallError } from '../../../src/core/plugins/plugin-worker.js';
import { PluginRegistry } from '../../../src/core/plugins/registry.js';
import { detectConfinement } from '../../../src/core/sandbox/index.js';
import { HOSTILE_PLUGIN, HOSTILE_WEB_PLUGIN } from '../../fixtures/plugins/hostile.js';
import { record } from '../faults/report.js';
import { TempHome } from '../helpers/home.js';

const ROOT = join(import.meta.dirname, '../../..');
const SECRET = 'sk-live-attack-9f8e7d6c5b4a';

interface Hit {
  entry: string;
}

function seen(value: unknown): Record<string, unknown> {
  return JSON.parse((value as Hit[])[0]!.entry) as Record<string, unknown>;
}

/** Processes on this machine whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const p of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker)) out.push(Number(p));
    } catch {
      /* gone */
    }
  }
  return out;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('attacks: a hostile plugin (issue 12)', function () {
  this.timeout(60_000);
  /** What the current test saw, for the reliability report. */
  let observed = '';
  afterEach(function () {
    const t = this.currentTest;
    if (t && t.state !== 'pending') {
      record({ area: 'plugin attacks', case: t.title, expected: 'the plugin loses: blocked, capped or stopped; the host keeps running', observed: t.state === 'passed' ? observed || 'as expected' : `FAILED: ${t.err?.message ?? ''}`.slice(0, 300), passed: t.state === 'passed', ms: t.duration });
    }
    observed = '';
  });
  let home: TempHome;
  let registry: PluginRegistry;
  let output: string[];
  let file: string;
  let confined = false;
  const outsideDir = join(ROOT, '.test-tmp');

  before(async () => {
    confined = (await detectConfinement()).confined;
  });

  beforeEach(async () => {
    home = new TempHome();
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    file = home.writePlugin('hostile.mjs', HOSTILE_PLUGIN);
    output = [];
    registry = new PluginRegistry(home.plugins, {
      // What Pepe's own environment holds: keys, a URL with a password, ordinary settings.
      env: () => ({ PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_API_KEY: SECRET, DATABASE_URL: `postgres://u:${SECRET}@db/x`, MY_SETTING: SECRET, LANG: 'C.UTF-8' }),
      onOutput: (_plugin, text) => output.push(text),
    });
    const info = await registry.list();
    assert.equal(info[0]?.error, null, `hostile plugin loads: ${info[0]?.error}`);
  });

  afterEach(() => {
    registry.dispose();
    home.cleanup();
  });

  const call = (attack: string, target: Record<string, unknown> = {}, deadlineMs = 5000) =>
    registry.workerFor(file)!.call('search', ['a', attack, { target }], deadlineMs);

  function needsConfinement(this: Mocha.Context): void {
    if (!confined) this.skip();
  }

  it('environment: only the allow-list reaches the plugin; nothing secret by any variable', async () => {
    const r = seen(await call('env', { hostPid: process.pid }));
    // PWD is what a shell sets on the way in (the process limit is applied by `sh`).
    const names = Object.keys(r.env as object).filter((n) => n !== 'PWD').sort();
    assert.deepEqual(names, ['ELECTRON_RUN_AS_NODE', 'HOME', 'LANG', 'PATH']);
    observed = `the plugin saw only ${names.join(', ')}`;
    assert.ok(!JSON.stringify(r.env).includes(SECRET));
  });

  it('environment: the host process and every other process’s /proc environ are out of reach', async function () {
    needsConfinement.call(this);
    const r = seen(await call('env', { hostPid: process.pid }));
    const host = (r.environs as Record<string, { ok: boolean }>)[String(process.pid)]!;
    assert.equal(host.ok, false, 'the host’s /proc/<pid>/environ was readable');
    observed = `host /proc/<pid>/environ: ${(host as { error?: string }).error ?? 'refused'}`;
    // Nothing of this (host) process's own environment shows up in what it could scan in /proc.
    const mine = readFileSync('/proc/self/environ', 'utf8').split('\u0000').filter((e) => /^[A-Za-z_]+=.{4,}/.test(e) && !/^(PATH|HOME|LANG|TERM|USER|SHELL|TMPDIR)=/.test(e));
    for (const entry of mine) assert.ok(!String(r.all).includes(entry), `read another process's environment (${entry.split('=')[0]})`);
  });

  it('configuration: $PEPE_HOME/config.json cannot be read or rewritten, nor a plugin planted', async function () {
    needsConfinement.call(this);
    const before = readFileSync(home.config, 'utf8');
    const r = seen(await call('config', { home: home.dir })) as Record<string, { ok: boolean }>;
    assert.equal(r.read!.ok, false, 'config.json was readable');
    assert.equal(r.write!.ok, false, 'config.json was writable');
    assert.equal(r.plant!.ok, false, 'a plugin was planted');
    assert.equal(readFileSync(home.config, 'utf8'), before);
    assert.ok(!existsSync(join(home.plugins, 'planted.mjs')));
    observed = `read ${(r.read as { error?: string }).error}, write ${(r.write as { error?: string }).error}, plant ${(r.plant as { error?: string }).error}; config.json unchanged`;
  });

  it('files: writes outside its data folder fail; its own data folder works', async function () {
    needsConfinement.call(this);
    mkdirSync(outsideDir, { recursive: true });
    const scratch = mkdtempSync(join(outsideDir, 'attack-'));
    const outside = join(scratch, 'pwned.txt');
    const marker = String(process.hrtime.bigint());
    try {
      const r = seen(await call('write', { outside, marker })) as Record<string, { ok: boolean }> & { cwd: string };
      assert.equal(r.outside!.ok, false);
      assert.equal(r.home!.ok, false);
      assert.ok(!existsSync(outside), 'a file was written outside the data folder');
      assert.ok(!existsSync(join(process.env.HOME ?? '/root', `.pepe-attack-${marker}`)), 'a dotfile was written in the user’s home');
      assert.equal(r.own!.ok, true, 'its own data folder is writable');
      assert.equal(readFileSync(join(home.dir, 'plugin-data', 'hostile', 'own.txt'), 'utf8'), 'mine');
      observed = `outside: ${(r.outside as { error?: string }).error}, home dotfile: ${(r.home as { error?: string }).error}; own data folder writable`;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('daemons: a detached child is gone once the plugin’s process is recycled', async function () {
    needsConfinement.call(this);
    const marker = `1000.${process.pid}${Date.now() % 100000}`;
    await call('daemon', { marker });
    assert.ok(await until(() => processesWith(marker).length > 0, 3000), 'the daemon started');
    registry.workerFor(file)!.recycle();
    assert.ok(await until(() => processesWith(marker).length === 0, 3000), `daemon still running: ${processesWith(marker).join(', ')}`);
  });

  it('daemons: the deadline kill takes the plugin’s children with it', async function () {
    needsConfinement.call(this);
    const marker = `2000.${process.pid}${Date.now() % 100000}`;
    await call('daemon', { marker });
    assert.ok(await until(() => processesWith(marker).length > 0, 3000), 'the daemon started');
    await assert.rejects(call('loop', {}, 300), (e: PluginCallError) => e.reason === 'timeout');
    assert.ok(await until(() => processesWith(marker).length === 0, 3000), 'daemon survived the deadline kill');
  });

  it('host kill: killing its parent or the host pid leaves the host running; the next call works', async function () {
    needsConfinement.call(this);
    await call('killHost', { hostPid: process.pid }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    // Still here (this test is the host); and the plugin answers again from a fresh process.
    const r = seen(await call('write', { outside: '/nonexistent/x', marker: 'k' }));
    assert.equal((r.own as { ok: boolean }).ok, true);
  });

  it('network: a non-web_search plugin cannot reach a loopback server; a web_search one can', async function () {
    needsConfinement.call(this);
    const requests: string[] = [];
    const server: Server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      const r = seen(await call('network', { port }));
      assert.equal(r.connected, false, 'a memory plugin reached the network');
      const web = home.writePlugin('hostile_web.mjs', HOSTILE_WEB_PLUGIN);
      await registry.list();
      const w = seen(await registry.workerFor(web)!.call('search', ['network', { target: { port } }], 5000));
      assert.equal(w.connected, true, `the web_search plugin could not connect: ${JSON.stringify(w)}`);
      assert.ok(await until(() => requests.length === 1, 2000));
    } finally {
      server.close();
    }
  });

  it('output flood: 16 MB of console output is capped per call, with one marker', async () => {
    await call('flood', { kilobytes: 16 * 1024 }, 20_000);
    // Output arrives on its own pipe: wait until its tail has stopped arriving (a fixed pause was too
    // short on a loaded machine), then start the next call's budget.
    for (let last = -1, now = output.length; now !== last; last = now, now = output.length) await new Promise((r) => setTimeout(r, 500));
    await call('flood', { kilobytes: 0 });
    const total = output.reduce((n, t) => n + Buffer.byteLength(t), 0);
    assert.ok(total < 80 * 1024, `${total} bytes of plugin output were kept`);
    assert.ok(output.some((t) => /more bytes dropped/.test(t)), 'the drop is reported');
    observed = `16 MB written, ${total} bytes kept in the log`;
  });

  it('oversized result: malformed, the call fails cleanly and the next one works', async () => {
    await assert.rejects(call('oversized'), (e: PluginCallError) => e.reason === 'malformed' && /over the .*limit/.test(e.detail));
    const r = seen(await call('write', { outside: '/nonexistent/x', marker: 'o' }));
    assert.ok(r.cwd);
  });

  it('oversized message sent around the plugin host’s own check: malformed, process recycled', async () => {
    const worker = registry.workerFor(file)!;
    const pid = worker.pid;
    await assert.rejects(call('rawFrame'), (e: PluginCallError) => e.reason === 'malformed' && /over the .*limit/.test(e.detail));
    const r = seen(await call('write', { outside: '/nonexistent/x', marker: 'r' }));
    assert.ok(r.cwd);
    assert.notEqual(worker.pid, pid, 'a fresh process answers');
  });

  it('sync loop: the deadline ends the process; the next call is answered by a fresh one', async () => {
    const worker = registry.workerFor(file)!;
    const pid = worker.pid!;
    const started = performance.now();
    await assert.rejects(call('loop', {}, 400), (e: PluginCallError) => e.reason === 'timeout');
    assert.ok(performance.now() - started < 1500);
    assert.ok(await until(() => !existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z'), 2000), 'the looping process was ended');
    const r = seen(await call('write', { outside: '/nonexistent/x', marker: 'l' }));
    assert.ok(r.cwd);
  });
});

