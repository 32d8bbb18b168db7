/**
 * The CLI's split bundles (scripts/cli-bundles.mjs): `pepe --help` and usage mistakes never load
 * the core; commands that need it do; the V8 code cache is private and only an optimisation.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { execa } from 'execa';
import { CLI, ensureBuilt, ROOT } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';
import { fixture, sse, startServer } from '../models/sse-server.js';

/** Runs the CLI with a preload that reports every module file it loaded (one per line, on fd 3). */
async function traced(home: TempHome, args: string[], extra: { input?: string; env?: Record<string, string> } = {}) {
  const preload = join(home.dir, 'trace.cjs');
  writeFileSync(
    preload,
    "const M = require('module'); const load = M._load; const seen = new Set();\n" +
      "M._load = function (req, parent, isMain) { const r = load.apply(this, arguments); try { seen.add(M._resolveFilename(req, parent, isMain)); } catch {} return r; };\n" +
      // Registered once the program has started, so it runs after the program's own exit handlers
      // (the code cache's) and sees what they load too.
      "setImmediate(() => process.on('exit', () => require('fs').writeFileSync(process.env.TRACE_OUT, [...seen, ...process.moduleLoadList].join('\\n'))));\n",
  );
  const out = join(home.dir, 'trace.txt');
  const r = await execa('node', ['--require', preload, CLI, ...args], {
    cwd: home.dir,
    env: { PATH: process.env.PATH ?? '', HOME: home.dir, PEPE_HOME: home.dir, TRACE_OUT: out, XDG_CACHE_HOME: join(home.dir, 'cache'), ...extra.env },
    extendEnv: false,
    reject: false,
    input: extra.input,
    stdin: extra.input === undefined ? 'ignore' : 'pipe',
    timeout: 60_000,
  });
  const loaded = existsSync(out) ? readFileSync(out, 'utf8').split('\n') : [];
  const dist = (name: string) => loaded.includes(join(ROOT, 'dist', name));
  return { ...r, loaded, dist };
}

/** The CLI's and the extension core's bundles: the entries and the chunks they share (scripts/cli-bundles.mjs). */
function splitBundles(): string[] {
  const entries = ['cli.js', 'cli-main.js', 'cli-core.js', 'extension-core.js'];
  return [...entries, ...readdirSync(join(ROOT, 'dist')).filter((f) => /-[A-Z0-9]{8}\.js$/.test(f))];
}

describe('pepe start-up: the core loads only when a command needs it', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('--help and a usage mistake load the entry bundle only', async () => {
    const help = await traced(home, ['--help']);
    assert.equal(help.exitCode, 0, help.stderr);
    assert.match(help.stdout, /Usage: pepe/);
    assert.equal(help.dist('cli-core.js'), false, `--help loaded the core: ${help.loaded.join(', ')}`);
    // commander requires child_process (and with it net and the streams) for a feature pepe does not use.
    assert.ok(help.loaded.includes('NativeModule fs'), 'the trace lists built-ins');
    assert.ok(!help.loaded.includes('NativeModule child_process'), '--help loaded node:child_process');
    const wrong = await traced(home, ['run']);
    assert.equal(wrong.exitCode, 2);
    assert.equal(wrong.dist('cli-core.js'), false);
  });

  it('--help prints the help commander prints, from the entry bundle alone', async () => {
    const help = await traced(home, ['--help']);
    assert.equal(help.exitCode, 0, help.stderr);
    assert.equal(help.dist('cli-main.js'), false, `--help loaded the commands: ${help.loaded.join(', ')}`);
    const commander = await execa('node', ['-e', "require(process.argv[1]).main(['--help']).then((c) => { process.exitCode = c; })", join(ROOT, 'dist/cli-main.js')], { reject: false, stdin: 'ignore' });
    assert.equal(commander.exitCode, 0, commander.stderr);
    assert.equal(help.stdout, commander.stdout);
    const short = await traced(home, ['-h']);
    assert.equal(short.stdout, commander.stdout);
  });

  it('--version prints package.json\'s version from the entry bundle alone; the whole program knows it too', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await traced(home, [flag]);
      assert.equal(r.exitCode, 0, r.stderr);
      assert.equal(r.stdout, version);
      assert.equal(r.dist('cli-main.js'), false, `${flag} loaded the commands`);
    }
    const commander = await execa('node', ['-e', "require(process.argv[1]).main(['--version']).then((c) => { process.exitCode = c; })", join(ROOT, 'dist/cli-main.js')], { reject: false, stdin: 'ignore' });
    assert.equal(commander.stdout, version, commander.stderr);
  });

  it('the heavy dependencies live in their own bundles, not in the entry or the core', () => {
    const text = (f: string) => readFileSync(join(ROOT, 'dist', f), 'utf8');
    // A string only each library's own code contains (the core names yaml's exports, hence a class body).
    const marks = {
      'ai-sdk.js': 'anthropic-beta', // (the core's model list sends anthropic-version itself)
      'yaml.js': 'super("YAMLParseError"',
      'sucrase.js': 'getJSXPragmaInfo',
      'execa.js': 'execaCoreAsync',
      'file-locks.js': 'imurmurhash', // write-file-atomic's temp names
      'mcp-sdk.js': 'strictSchema', // ajv, the MCP client's validator
      'tree-sitter.js': 'TRANSFER_BUFFER',
    };
    for (const [vendor, mark] of Object.entries(marks)) {
      assert.ok(text(`cli-vendor/${vendor}`).includes(mark), `${mark} not in ${vendor}`);
      for (const f of splitBundles()) assert.ok(!text(f).includes(mark), `${mark} (${vendor}) is bundled into ${f}`);
    }
    assert.ok(!text('cli.js').includes('$constructor'), 'zod is bundled into the entry');
  });

  // Failed before issue 27's second pass: the MCP client (with ajv), the bash grammar's runtime, the
  // lock-file packages and node:crypto were in the core and loaded (or initialised) by every command.
  it('pepe slot list loads the core and no vendor bundle; a mock run only what a turn writes with', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const list = await traced(home, ['slot', 'list']);
    assert.equal(list.exitCode, 0, list.stderr);
    assert.ok(list.dist('cli-core.js'));
    const vendors = list.loaded.filter((f) => f.startsWith(join(ROOT, 'dist', 'cli-vendor')));
    assert.deepEqual(vendors, [], 'slot list loaded vendor bundles');
    for (const builtin of ['crypto', 'worker_threads', 'assert']) assert.ok(!list.loaded.includes(`NativeModule ${builtin}`), `slot list loaded node:${builtin}`);
    const run = await traced(home, ['run', 'a', 'hello']);
    assert.equal(run.exitCode, 0, run.stderr);
    for (const vendor of ['mcp-sdk.js', 'tree-sitter.js']) assert.equal(run.dist(`cli-vendor/${vendor}`), false, `${vendor} was loaded for a mock turn`);
  });

  // Failed before: writing to a pipe built process.stdout (net and the streams), the bash grammar's
  // node:zlib (and the streams with it) loaded with the core, and a turn's ids loaded node:crypto.
  it('slot list and a mock run writing to a pipe load neither net, the streams, zlib nor crypto', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    for (const args of [['slot', 'list'], ['run', 'a', 'hello']]) {
      // The second run: the first writes the code cache, which asks node:v8 (and its streams).
      assert.equal((await traced(home, args, { input: '' })).exitCode, 0);
      const r = await traced(home, args, { input: '' });
      assert.equal(r.exitCode, 0, r.stderr);
      assert.ok(r.stdout.length > 0);
      assert.ok(r.loaded.includes('NativeModule fs'), 'the trace lists built-ins');
      for (const builtin of ['net', 'stream', 'zlib', 'tty', 'crypto']) assert.ok(!r.loaded.includes(`NativeModule ${builtin}`), `pepe ${args.join(' ')} loaded node:${builtin}`);
    }
  });

  // Failed before: `pepe slot list | head -1` died of an unhandled EPIPE with a stack trace.
  it('a reader that goes away (pepe … | head) ends the output quietly, not with an EPIPE crash', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    for (const args of [['slot', 'list'], ['run', 'a', 'hello']]) {
      const child = spawn('node', [CLI, ...args], { cwd: home.dir, env: { PATH: process.env.PATH ?? '', HOME: home.dir, PEPE_HOME: home.dir, XDG_CACHE_HOME: join(home.dir, 'cache') }, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdout.destroy(); // the read end closes before the command writes anything
      child.stdin.end();
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
      assert.equal(code, 0, `pepe ${args.join(' ')} exited ${code}: ${err}`);
      assert.doesNotMatch(err, /EPIPE|Unhandled|at /, `pepe ${args.join(' ')} printed: ${err}`);
    }
  });

  it('the bundles are pure ASCII and carry zod\'s English messages only (each start reads all of them)', () => {
    const files = [...splitBundles(), ...readdirSync(join(ROOT, 'dist/cli-vendor')).filter((f) => f.endsWith('.js')).map((f) => `cli-vendor/${f}`)];
    for (const f of files) {
      const bytes = readFileSync(join(ROOT, 'dist', f));
      const at = bytes.findIndex((b) => b > 0x7f);
      assert.equal(at, -1, `${f} has a non-ASCII byte at ${at}: ${bytes.subarray(Math.max(0, at - 60), at + 20).toString()}`);
    }
    const core = splitBundles().map((f) => readFileSync(join(ROOT, 'dist', f), 'utf8')).join('\n');
    assert.ok(core.includes('Invalid input'), "zod's English messages are in the core");
    // The German messages' own words ("Ungültige Eingabe", escaped as ASCII by the bundler).
    assert.ok(!/Ung\\(u00FC|xFC)ltige Eingabe/i.test(core), "zod's other languages are bundled");
  });

  it('a mock run loads the core but not the AI SDK, yaml or sucrase; an agent core loads yaml', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const run = await traced(home, ['run', 'a', 'hello']);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.stdout, 'You said: hello');
    assert.ok(run.dist('cli-core.js'));
    for (const vendor of ['ai-sdk.js', 'yaml.js', 'sucrase.js']) assert.equal(run.dist(`cli-vendor/${vendor}`), false, `${vendor} was loaded for a mock turn`);
    const init = await traced(home, ['init', join(home.dir, 'core')]);
    assert.equal(init.exitCode, 0, init.stderr);
    const check = await traced(home, ['init', '--check', join(home.dir, 'core')]);
    assert.equal(check.exitCode, 0, check.stderr);
    assert.ok(check.dist('cli-vendor/yaml.js'), 'checking a core parses its YAML with the lazily loaded yaml bundle');
  });

  for (const [provider, file] of [['openai-compatible', 'openai-text.sse'], ['anthropic', 'anthropic-text.sse']] as const) {
    it(`a ${provider} model answers through the lazily loaded AI SDK bundle (loopback HTTP)`, async () => {
      const server = await startServer([sse([fixture(file)])]);
      try {
        home.writeConfig({ agents: { a: { model: 'remote' } }, models: { remote: { provider, model: 'm', base_url: server.baseUrl, api_key_env: 'TEST_KEY' } } });
        const r = await traced(home, ['run', 'a', 'hello'], { env: { TEST_KEY: 'k' } });
        assert.equal(r.exitCode, 0, r.stderr);
        assert.ok(r.dist('cli-vendor/ai-sdk.js'));
        assert.ok(r.stdout.length > 0 && server.requests.length === 1, `no answer: ${r.stderr}`);
      } finally {
        await server.close();
      }
    });
  }

  it('pepe chat reads lines piped in while the core loads; /agent uses the core\'s parser', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' }, b: { model: 'mock' } } });
    const r = await traced(home, ['chat', 'a', '--provider', 'fake'], { input: 'hello\n/agent\n/agent b\nhi there\n/exit\n' });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /a> You said: hello/);
    assert.match(r.stdout, /usage: \/agent NAME/);
    assert.match(r.stdout, /now talking with b/);
    assert.match(r.stdout, /b> You said: hi there/);
  });

  // Failed before: every command loaded node:v8 (and the streams it brings) at start, to set the
  // bash grammar's WebAssembly tier, and again at exit, to weigh the code cache's coverage.
  it('a command run before loads no node:v8, at start or at exit; a turn that classifies a command line sets the grammar\'s tier', async () => {
    const script = join(home.dir, 'pipe.json');
    writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo hi | tr a-z A-Z' } }] }, { text: 'done' }] }));
    home.writeConfig({ agents: { a: { model: 'mock' }, p: { model: `mock:${script}`, tools: ['bash'], auto_approve: ['bash'] } } });
    for (const args of [['slot', 'list'], ['run', 'a', 'hello']]) {
      const first = await traced(home, args);
      assert.equal(first.exitCode, 0, first.stderr);
      const again = await traced(home, args);
      assert.equal(again.exitCode, 0, again.stderr);
      assert.ok(again.loaded.includes('NativeModule fs'), 'the trace lists built-ins');
      assert.ok(!again.loaded.includes('NativeModule v8'), `pepe ${args.join(' ')} loaded node:v8 the second time`);
    }
    // The tier is set through node:v8 when the grammar is first needed (a pipe needs it), and only then.
    const flags = join(home.dir, 'flags.txt');
    const preload = join(home.dir, 'flags.cjs');
    writeFileSync(preload, "const v8 = require('v8'); const set = v8.setFlagsFromString; v8.setFlagsFromString = (f) => { require('fs').appendFileSync(process.env.FLAGS_OUT, f + '\\n'); return set(f); };\n");
    const withFlags = (args: string[]) => execa('node', ['--require', preload, CLI, ...args], { cwd: home.dir, env: { PATH: process.env.PATH ?? '', HOME: home.dir, PEPE_HOME: home.dir, PEPE_CHECKPOINTS: 'off', FLAGS_OUT: flags, XDG_CACHE_HOME: join(home.dir, 'cache') }, extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
    const list = await withFlags(['slot', 'list']);
    assert.equal(list.exitCode, 0, list.stderr);
    assert.equal(existsSync(flags), false, 'slot list set V8 flags');
    const pipe = await withFlags(['run', 'p', 'go', '--no-input']);
    assert.equal(pipe.exitCode, 0, pipe.stderr);
    assert.match(pipe.stderr + pipe.stdout, /HI/, 'the command ran');
    assert.deepEqual(readFileSync(flags, 'utf8').split('\n').filter(Boolean), ['--liftoff-only']);
  });

  it('zod in the CLI parses without compiling parsers (jitless); the setting reaches the bundled zod', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const out = join(home.dir, 'jit.txt');
    const preload = join(home.dir, 'jit.cjs');
    // zod keeps its settings in one global object, made by whoever comes first: the CLI makes it
    // with jitless set, and the core's zod then writes its message language into the same object.
    writeFileSync(preload, `setImmediate(() => process.on('exit', () => { const c = globalThis.__zod_globalConfig; require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ jitless: c && c.jitless, locale: typeof (c && c.localeError) })); }));\n`);
    const r = await execa('node', ['--require', preload, CLI, 'run', 'a', 'hello'], { cwd: home.dir, env: { PATH: process.env.PATH ?? '', HOME: home.dir, PEPE_HOME: home.dir, XDG_CACHE_HOME: join(home.dir, 'cache') }, extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
    assert.equal(r.stdout, 'You said: hello', r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), { jitless: true, locale: 'function' });
  });

  it('the code cache is written privately, and a cache folder others can write to is not used', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const first = await traced(home, ['run', 'a', 'hello']);
    assert.equal(first.exitCode, 0, first.stderr);
    const cache = join(home.dir, 'cache/pepe/v8');
    const nodeMajor = Number(process.versions.node.split('.')[0]);
    if (nodeMajor < 22) assert.ok(readdirSync(cache).some((f) => /^[0-9a-f]{16}-cli-core\.js-/.test(f)), 'no code cache for cli-core.js');
    // Garbage in the cache is rejected by V8 and the command still works.
    for (const f of readdirSync(cache)) writeFileSync(join(cache, f), 'not a code cache');
    const again = await traced(home, ['run', 'a', 'hello']);
    assert.equal(again.stdout, 'You said: hello', again.stderr);
    // A shared, writable cache folder is refused: nothing is read from or written to it.
    const shared = join(home.dir, 'shared');
    mkdirSync(join(shared, 'pepe/v8'), { recursive: true });
    chmodSync(join(shared, 'pepe'), 0o777);
    chmodSync(join(shared, 'pepe/v8'), 0o777);
    const refused = await traced(home, ['run', 'a', 'hello'], { env: { XDG_CACHE_HOME: shared } });
    assert.equal(refused.stdout, 'You said: hello', refused.stderr);
    assert.deepEqual(readdirSync(join(shared, 'pepe/v8')), []);
    const off = await traced(home, ['run', 'a', 'hello'], { env: { PEPE_CODE_CACHE: 'off', XDG_CACHE_HOME: join(home.dir, 'off') } });
    assert.equal(off.stdout, 'You said: hello');
    assert.equal(existsSync(join(home.dir, 'off')), false);
  });
});
