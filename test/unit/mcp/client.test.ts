import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PepeConfig } from '../../../src/core/config/schema.js';
import { McpCallError, McpManager, resultText } from '../../../src/core/mcp/index.js';
import { everythingArgv, everythingHttp, filesystemArgv, floodHttp } from './servers.js';

type Servers = NonNullable<PepeConfig['mcp_servers']>;

/** The client manager against the real servers: stdio (confined) and streamable HTTP on loopback. */
describe('MCP client manager (real servers)', function () {
  this.timeout(60_000);
  let home: string;
  let managers: McpManager[] = [];
  const notices: string[] = [];

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'pepe-mcp-'));
    notices.length = 0;
  });
  afterEach(async () => {
    await Promise.all(managers.map((m) => m.dispose()));
    managers = [];
    rmSync(home, { recursive: true, force: true });
  });

  function manager(servers: Servers, env: NodeJS.ProcessEnv = {}): McpManager {
    const config: PepeConfig = { mcp_servers: servers };
    const m = new McpManager({ home, env, config: () => config, onNotice: (_s, t) => notices.push(t) });
    managers.push(m);
    return m;
  }

  const [cmd, ...args] = everythingArgv();
  const everything = (extra: Record<string, unknown> = {}) => ({ ev: { command: cmd!, args, ...extra } }) as Servers;

  it('stdio: lists tools with their schemas and calls one with arguments', async () => {
    const m = manager(everything());
    const tools = await m.listTools('ev');
    const sum = tools.find((t) => t.name === 'get-sum');
    assert.ok(sum, tools.map((t) => t.name).join(', '));
    assert.deepEqual(Object.keys((sum.inputSchema as { properties: object }).properties).sort(), ['a', 'b']);
    const r = await m.callTool('ev', 'get-sum', { a: 19, b: 23 });
    assert.match(resultText(r), /42/);
    assert.equal(m.status()[0]!.state, 'running');
  });

  it('structured and error results', async () => {
    const m = manager(everything());
    const structured = await m.callTool('ev', 'get-structured-content', { location: 'Chicago' });
    assert.equal(typeof (structured.structuredContent as { temperature?: unknown }).temperature, 'number');
    const bad = await m.callTool('ev', 'get-sum', { a: 'not a number' });
    assert.equal(bad.isError, true);
    assert.match(resultText(bad), /invalid/i);
  });

  it('a local server gets the allow-list environment plus its own ${VAR} references, never the rest', async () => {
    const env = { PATH: '/usr/bin:/bin', GITHUB_TOKEN: 'ghp_secret_from_pepe_env', SERVICE_KEY: 'resolved-value', RANDOM_VAR: 'nope' };
    const m = manager(everything({ env: { SERVICE: '${SERVICE_KEY}' } }), env);
    const text = resultText(await m.callTool('ev', 'get-env', {}));
    const seen = JSON.parse(text) as Record<string, string>;
    assert.equal(seen.SERVICE, 'resolved-value');
    assert.equal(seen.GITHUB_TOKEN, undefined);
    assert.equal(seen.RANDOM_VAR, undefined);
    assert.ok(!text.includes('ghp_secret_from_pepe_env'));
  });

  it('a local server gets exactly that environment: nothing of Pepe\'s own process is added', async () => {
    // The SDK adds LOGNAME, USER, SHELL and TERM from the process it runs in, under the environment
    // it is given; none of them is in what Pepe passes here.
    const saved = { LOGNAME: process.env.LOGNAME, USER: process.env.USER, SHELL: process.env.SHELL, TERM: process.env.TERM };
    Object.assign(process.env, { LOGNAME: 'pepe-process-logname', USER: 'pepe-process-user', SHELL: '/bin/pepe-process-shell', TERM: 'pepe-process-term' });
    try {
      const m = manager(everything({ env: { ONLY: 'this' } }), { PATH: '/usr/bin:/bin' });
      const seen = JSON.parse(resultText(await m.callTool('ev', 'get-env', {}))) as Record<string, string>;
      // PWD is the server's working folder, set by the shell that applies the process limit.
      delete seen.PWD;
      assert.deepEqual(Object.keys(seen).sort(), ['HOME', 'ONLY', 'PATH']);
      assert.ok(!JSON.stringify(seen).includes('pepe-process-'), JSON.stringify(seen));
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('Restricted Mode: nothing is started, whether listing, calling, checking or restarting', async () => {
    const config: PepeConfig = { mcp_servers: everything() };
    const m = new McpManager({ home, env: {}, config: () => config, trusted: () => false });
    managers.push(m);
    const restricted = (e: unknown) => e instanceof McpCallError && /Restricted Mode: trust the folder to use MCP servers/.test(e.message);
    await assert.rejects(m.listTools('ev'), restricted);
    await assert.rejects(m.callTool('ev', 'echo', { message: 'x' }), restricted);
    await assert.rejects(m.restart('ev'), restricted);
    const check = await m.check('ev');
    assert.equal(check.ok, false);
    assert.match(check.error ?? '', /Restricted Mode/);
    const { tools, problems } = await m.toolsFor({ model: 'm', mcp: ['ev'] } as never);
    assert.equal(tools.length, 0);
    assert.match(problems.join('\n'), /Restricted Mode/);
    assert.equal(m.status()[0]!.state, 'not_started');
    assert.ok(!existsSync(join(home, 'mcp-data', 'ev')), 'not even its data folder was made');
  });

  it('a missing ${VAR} is a clear start error naming it', async () => {
    const m = manager(everything({ env: { X: '${NOT_SET_ANYWHERE}' } }));
    await assert.rejects(m.listTools('ev'), /NOT_SET_ANYWHERE.*not set/);
    assert.equal(m.status()[0]!.state, 'failed');
  });

  it('a server that failed to start is not retried by every turn; a check or a restart tries again', async () => {
    const m = manager({ gone: { command: '/nonexistent/mcp-server' } });
    await assert.rejects(m.listTools('gone'), /could not start/);
    assert.equal(m.status()[0]!.state, 'failed');
    const conn = m.connection('gone') as unknown as { start: () => Promise<unknown> };
    let starts = 0;
    const original = conn.start.bind(conn);
    conn.start = () => {
      starts++;
      return original();
    };
    await assert.rejects(m.listTools('gone'), /could not start/);
    assert.equal(starts, 0, 'the same error, without starting it again');
    const check = await m.check('gone');
    assert.equal(check.ok, false);
    assert.equal(starts, 1, 'a check tries again');
  });

  it('a local server runs confined: Pepe\'s home is hidden and it cannot write outside its folders', async () => {
    writeFileSync(join(home, 'config.json'), '{"secret": "pepe config"}');
    const outside = mkdtempSync(join(tmpdir(), 'pepe-mcp-out-'));
    const allowed = mkdtempSync(join(tmpdir(), 'pepe-mcp-fs-'));
    try {
      writeFileSync(join(outside, 'private.txt'), 'not for the server');
      const [fcmd, ...fargs] = filesystemArgv('/');
      // The filesystem server would serve anything under "/" were it not confined.
      const m = manager({ fs: { command: fcmd!, args: fargs, writable: [allowed] } });
      const read = await m.callTool('fs', 'read_text_file', { path: join(home, 'config.json') });
      assert.ok(!resultText(read).includes('pepe config'), resultText(read));
      const write = await m.callTool('fs', 'write_file', { path: join(outside, 'planted.txt'), content: 'x' });
      assert.equal(write.isError, true, resultText(write));
      assert.ok(!existsSync(join(outside, 'planted.txt')));
      const ok = await m.callTool('fs', 'write_file', { path: join(allowed, 'fine.txt'), content: 'hello' });
      assert.notEqual(ok.isError, true, resultText(ok));
      assert.equal(readFileSync(join(allowed, 'fine.txt'), 'utf8'), 'hello');
    } finally {
      rmSync(outside, { recursive: true, force: true });
      rmSync(allowed, { recursive: true, force: true });
    }
  });

  it('server-filesystem confined to a temporary folder: list and read', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pepe-mcp-fs-'));
    try {
      writeFileSync(join(folder, 'note.txt'), 'inside the folder');
      const [fcmd, ...fargs] = filesystemArgv(folder);
      const m = manager({ fs: { command: fcmd!, args: fargs, readable: [folder] } });
      const names = (await m.listTools('fs')).map((t) => t.name);
      assert.ok(names.includes('list_directory'), names.join(', '));
      assert.match(resultText(await m.callTool('fs', 'list_directory', { path: folder })), /note\.txt/);
      assert.match(resultText(await m.callTool('fs', 'read_text_file', { path: join(folder, 'note.txt') })), /inside the folder/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a hanging tool is cut off at the deadline, the server is stopped, and the next call starts a fresh one', async () => {
    const m = manager(everything({ timeout_ms: 700 }));
    const started = Date.now();
    await assert.rejects(m.callTool('ev', 'trigger-long-running-operation', { duration: 30, steps: 2 }), (e: unknown) => e instanceof McpCallError && e.kind === 'deadline');
    assert.ok(Date.now() - started < 5000, `cut off after ${Date.now() - started} ms`);
    assert.equal(m.status()[0]!.state, 'stopped');
    assert.match(resultText(await m.callTool('ev', 'echo', { message: 'again' })), /again/);
  });

  it('a server killed mid-call: the call fails with a clear error, the next use restarts it with a notice', async () => {
    const m = manager(everything());
    await m.listTools('ev');
    const conn = m.connection('ev');
    const pid = conn.pid!;
    assert.ok(pid > 0);
    const call = m.callTool('ev', 'trigger-long-running-operation', { duration: 20, steps: 2 });
    void (async () => {
      while (conn.busy === 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 100));
      process.kill(pid, 'SIGKILL');
    })();
    await assert.rejects(call, (e: unknown) => e instanceof McpCallError && e.kind === 'stopped' && /restarted on next use/.test(e.message));
    assert.match(resultText(await m.callTool('ev', 'echo', { message: 'back' })), /back/);
    assert.ok(notices.some((n) => /restarted after it stopped unexpectedly/.test(n)), notices.join('\n'));
    assert.equal(conn.restarts, 1);
    assert.notEqual(conn.pid, pid);
  });

  it('Stop cancels a running call at once; the server keeps serving', async () => {
    const m = manager(everything());
    await m.listTools('ev');
    const stop = new AbortController();
    const started = Date.now();
    setTimeout(() => stop.abort(), 200);
    await assert.rejects(m.callTool('ev', 'trigger-long-running-operation', { duration: 20, steps: 2 }, stop.signal), (e: unknown) => e instanceof McpCallError && e.kind === 'cancelled');
    assert.ok(Date.now() - started < 3000);
    assert.match(resultText(await m.callTool('ev', 'echo', { message: 'still here' })), /still here/);
  });

  it('a flood: a message over the transport cap stops the server (the call fails, nothing hangs)', async () => {
    const m = manager(everything());
    const huge = 'x'.repeat(9 * 1024 * 1024);
    await assert.rejects(m.callTool('ev', 'echo', { message: huge }), (e: unknown) => e instanceof McpCallError && e.kind === 'stopped' && /exceeded maximum size/.test(e.message));
    assert.match(resultText(await m.callTool('ev', 'echo', { message: 'after' })), /after/);
  });

  it('is reused across calls, stopped when idle, and stopped on dispose', async () => {
    const m = manager(everything({ idle_ms: 400 }));
    await m.callTool('ev', 'echo', { message: 'one' });
    const pid = m.connection('ev').pid;
    await m.callTool('ev', 'echo', { message: 'two' });
    assert.equal(m.connection('ev').pid, pid, 'the same process serves both calls');
    await new Promise((r) => setTimeout(r, 900));
    assert.equal(m.status()[0]!.state, 'stopped');
    assert.throws(() => process.kill(pid!, 0), 'the idle server process is gone');
    await m.callTool('ev', 'echo', { message: 'three' });
    const pid2 = m.connection('ev').pid!;
    await m.dispose();
    await new Promise((r) => setTimeout(r, 100));
    assert.throws(() => process.kill(pid2, 0), 'disposed: the server process is gone');
  });

  it('streamable HTTP on loopback: tools, a call with arguments, structured and error results', async () => {
    const http = await everythingHttp();
    try {
      const m = manager({ web: { url: http.url } });
      assert.ok((await m.listTools('web')).some((t) => t.name === 'echo'));
      assert.match(resultText(await m.callTool('web', 'echo', { message: 'over http' })), /over http/);
      const s = await m.callTool('web', 'get-structured-content', { location: 'Los Angeles' });
      assert.ok(s.structuredContent);
      assert.equal((await m.callTool('web', 'get-sum', { a: 1 })).isError, true);
    } finally {
      http.stop();
    }
  });

  it('streamable HTTP: a remote server that dies mid-call fails the call, the turn goes on', async () => {
    const http = await everythingHttp();
    try {
      const m = manager({ web: { url: http.url, timeout_ms: 3000 } });
      await m.listTools('web');
      const call = m.callTool('web', 'trigger-long-running-operation', { duration: 20, steps: 2 });
      setTimeout(() => http.stop(), 300);
      await assert.rejects(call, McpCallError);
    } finally {
      http.stop();
    }
  });

  for (const json of [true, false]) {
    it(`streamable HTTP: a flood over the cap (${json ? 'a JSON answer' : 'an event stream'}) cuts the connection; the next call reconnects`, async () => {
      const http = await floodHttp(json);
      try {
        const m = manager({ web: { url: http.url, timeout_ms: 20_000 } });
        assert.equal(resultText(await m.callTool('web', 'flood', { bytes: 1000 })).length, 1000);
        const started = Date.now();
        await assert.rejects(m.callTool('web', 'flood', { bytes: 9 * 1024 * 1024 }), (e: unknown) => e instanceof McpCallError && e.kind === 'stopped' && /larger than the \d+-byte cap/.test(e.message));
        assert.ok(Date.now() - started < 10_000, 'cut off, not waited out');
        assert.equal(resultText(await m.callTool('web', 'flood', { bytes: 10 })).length, 10);
      } finally {
        await http.stop();
      }
    });
  }

  it('a URL that is not an MCP server fails to start with both transports named', async () => {
    const m = manager({ web: { url: 'http://127.0.0.1:9/mcp' } });
    await assert.rejects(m.listTools('web'), /streamable HTTP: .*SSE: /s);
  });
});
