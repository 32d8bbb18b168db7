/**
 * The plugin host process (spec 3.3): framing with size caps, the allow-list environment, the
 * data folder as working directory, concurrent calls, restarts and disposal.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FrameError, FrameReader, encodeFrame } from '../../../src/core/plugins/framing.js';
import { PluginCallError } from '../../../src/core/plugins/plugin-worker.js';
import { PluginRegistry } from '../../../src/core/plugins/registry.js';
import { pluginDataDir, pluginEnv } from '../../../src/core/plugins/sandboxing.js';
import { TempHome } from '../helpers/home.js';

const PROBE = `
export function name() { return 'probe'; }
export function slot() { return 'memory'; }
export async function search(agent, query, opts) {
  if (query === 'env') return [{ file: 'env', entry: JSON.stringify(process.env), score: null, source: process.cwd() }];
  if (query === 'die-later') { setTimeout(() => process.exit(1), 10); return []; }
  await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 20)));
  return [{ file: String(opts.n), entry: query, score: null, source: null }];
}
`;

describe('plugin host process', function () {
  this.timeout(30_000);

  describe('framing', () => {
    it('reassembles messages split at every byte and joined in one chunk', () => {
      const got: unknown[] = [];
      const reader = new FrameReader(1024, (m) => got.push(m));
      const bytes = Buffer.concat([encodeFrame({ a: 1 }), encodeFrame(['x', 'ü']), encodeFrame(null)]);
      for (let i = 0; i < bytes.length; i++) reader.push(bytes.subarray(i, i + 1));
      reader.push(Buffer.concat([encodeFrame(1), encodeFrame(2)]));
      assert.deepEqual(got, [{ a: 1 }, ['x', 'ü'], null, 1, 2]);
    });

    it('refuses a message over the cap from its header alone, and garbage', () => {
      const reader = new FrameReader(16, () => undefined);
      const head = Buffer.alloc(4);
      head.writeUInt32BE(17, 0);
      assert.throws(() => reader.push(head), FrameError);
      const bad = Buffer.concat([Buffer.from([0, 0, 0, 3]), Buffer.from('{{{')]);
      assert.throws(() => new FrameReader(16, () => undefined).push(bad), /not valid JSON/);
    });
  });

  describe('environment and data folder', () => {
    it('passes only allow-listed and exposed variables', () => {
      const env = pluginEnv({ PATH: '/bin', HOME: '/h', OPENAI_API_KEY: 'sk', NODE_OPTIONS: '--require x', EXTRA: 'e', TERM: 'xterm' }, ['EXTRA']);
      assert.deepEqual(env, { PATH: '/bin', HOME: '/h', TERM: 'xterm', EXTRA: 'e' });
    });

    it('names the data folder after the file, never outside plugin-data', () => {
      assert.equal(pluginDataDir('/p', '/p/plugins/my_mem.ts'), join('/p', 'plugin-data', 'my_mem'));
      assert.equal(pluginDataDir('/p', '/p/plugins/../x y.mjs'), join('/p', 'plugin-data', 'x_y'));
    });
  });

  describe('through the registry', () => {
    let home: TempHome;
    let registry: PluginRegistry;
    let file: string;
    beforeEach(async () => {
      home = new TempHome();
      file = home.writePlugin('probe.mjs', PROBE);
      registry = new PluginRegistry(home.plugins, {
        env: () => ({ PATH: process.env.PATH, GITHUB_TOKEN: 'ghp_x', NODE_OPTIONS: '--inspect', SHOWN: 'yes' }),
        exposeEnv: () => ['SHOWN'],
      });
      assert.equal((await registry.list())[0]?.error, null);
    });
    afterEach(() => {
      registry.dispose();
      home.cleanup();
    });
    const worker = () => registry.workerFor(file)!;

    it('runs in its own data folder with the allow-list environment', async () => {
      const [hit] = (await worker().call('search', ['a', 'env', {}], 5000)) as { entry: string; source: string }[];
      assert.equal(hit!.source, pluginDataDir(home.dir, file));
      assert.ok(existsSync(hit!.source));
      const env = JSON.parse(hit!.entry) as Record<string, string>;
      assert.equal(env.SHOWN, 'yes');
      assert.equal(env.GITHUB_TOKEN, undefined);
      assert.equal(env.NODE_OPTIONS, undefined);
    });

    it('answers concurrent calls each with its own result', async () => {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => worker().call('search', ['a', `q${n}`, { n }], 5000)));
      answers.forEach((a, n) => assert.deepEqual(a, [{ file: String(n), entry: `q${n}`, score: null, source: null }]));
    });

    it('a process that dies between calls is restarted for the next one', async () => {
      await worker().call('search', ['a', 'die-later', {}], 5000);
      await new Promise((r) => setTimeout(r, 200));
      const again = await worker().call('search', ['a', 'back', { n: 1 }], 5000);
      assert.deepEqual(again, [{ file: '1', entry: 'back', score: null, source: null }]);
    });

    it('a call to a missing function is an error, not a crash', async () => {
      await assert.rejects(worker().call('index', ['a'], 5000), (e: PluginCallError) => e.reason === 'error' && /no function index/.test(e.detail));
    });

    it('dispose ends the process', async () => {
      await worker().call('search', ['a', 'x', { n: 0 }], 5000);
      const pid = worker().pid!;
      registry.dispose();
      const end = Date.now() + 3000;
      const alive = () => existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      while (alive() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      assert.ok(!alive(), 'the plugin process is gone');
    });
  });
});
