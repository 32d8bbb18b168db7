import assert from 'node:assert/strict';
import { StdioServerTransport } from '../../../src/core/mcp/stdio-transport.js';

/** A transport to `node -e script`, with what it reports collected. */
function serverOf(script: string, maxBufferSize = 1 << 20) {
  const transport = new StdioServerTransport({ command: process.execPath, args: ['-e', script], env: { PATH: process.env.PATH ?? '' }, cwd: process.cwd(), maxBufferSize });
  const seen = { messages: [] as unknown[], errors: [] as string[] };
  transport.onmessage = (m) => seen.messages.push(m);
  transport.onerror = (e) => seen.errors.push(e.message);
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  return { transport, seen, closed };
}

const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.then((v) => ({ settled: true as const, v })), new Promise<{ settled: false }>((r) => setTimeout(() => r({ settled: false }), ms))]);

describe('a local MCP server’s stdio (core/mcp/stdio-transport)', function () {
  this.timeout(30_000);

  it('messages are lines of JSON-RPC; a line that is not is an error and the next still arrives; stderr is kept', async () => {
    const { transport, seen, closed } = serverOf(`process.stderr.write('starting\\n'); process.stdout.write('not json\\n' + JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }) + '\\n')`);
    let stderr = '';
    transport.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await transport.start();
    await closed;
    assert.deepEqual(seen.messages, [{ jsonrpc: '2.0', id: 1, result: {} }]);
    assert.equal(seen.errors.length, 1);
    assert.equal(stderr, 'starting\n');
  });

  it('a handler that throws is an error for the client, not an exception out of the pipe', async () => {
    const { transport, seen, closed } = serverOf(`process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'a' }) + '\\n' + JSON.stringify({ jsonrpc: '2.0', method: 'b' }) + '\\n')`);
    const methods: string[] = [];
    transport.onmessage = (m) => {
      methods.push((m as { method: string }).method);
      if (methods.length === 1) throw new Error('handler failed');
    };
    await transport.start();
    await closed;
    assert.deepEqual(methods, ['a', 'b']);
    assert.deepEqual(seen.errors, ['handler failed']);
  });

  it('a send to a server that exited without reading settles (it used to wait for a drain that never comes)', async () => {
    const { transport, closed } = serverOf(`setTimeout(() => process.exit(0), 200)`);
    await transport.start();
    const big = { jsonrpc: '2.0' as const, method: 'x', params: { pad: 'x'.repeat(4 << 20) } };
    const sent = transport.send(big).then(
      () => 'sent',
      (e: Error) => e.message,
    );
    const r = await within(sent, 10_000);
    assert.equal(r.settled, true, 'the send never settled');
    await closed;
  });

  it('a flood (one line over the limit) stops the server and says why; close afterwards is quiet', async () => {
    const { transport, seen, closed } = serverOf(`process.stdout.write('x'.repeat(300000)); setInterval(() => process.stdout.write('y'.repeat(1000)), 10)`, 100_000);
    await transport.start();
    await closed;
    assert.match(seen.errors[0] ?? '', /maximum size/);
    await transport.close();
    assert.throws(() => transport.start(), /already started/);
  });
});
