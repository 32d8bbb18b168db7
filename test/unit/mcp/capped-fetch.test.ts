import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { cappedFetch } from '../../../src/core/mcp/capped-fetch.js';

/** The size cap on a remote server's answers, over real loopback HTTP. */
describe('MCP capped fetch', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const n = Number(u.searchParams.get('n'));
      const size = Number(u.searchParams.get('size'));
      const eol = u.searchParams.get('eol') === 'crlf' ? '\r\n' : '\n';
      if (u.pathname === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let i = 0; i < n; i++) res.write(`event: message${eol}data: ${'y'.repeat(size)}${eol}${eol}`);
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        // Blank lines inside a JSON answer must not reset the count.
        res.end(`"${'z'.repeat(size)}\n\n${'z'.repeat(size)}"`);
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('an event stream is counted per event: many events under the cap pass whole', async () => {
    for (const eol of ['lf', 'crlf']) {
      const over: string[] = [];
      const res = await cappedFetch(4096, (r) => over.push(r))(`${base}/events?n=50&size=3000&eol=${eol}`);
      const text = await res.text();
      assert.equal(text.split('data: ').length - 1, 50, eol);
      assert.deepEqual(over, []);
    }
  });

  it('one event over the cap errors the body and says why', async () => {
    const over: string[] = [];
    const res = await cappedFetch(4096, (r) => over.push(r))(`${base}/events?n=2&size=5000`);
    await assert.rejects(res.text(), /larger than the 4096-byte cap/);
    assert.equal(over.length, 1);
  });

  it('any other answer is counted whole', async () => {
    const over: string[] = [];
    const ok = await cappedFetch(4096, (r) => over.push(r))(`${base}/json?size=1000`);
    assert.equal((await ok.text()).length, 2004);
    const big = await cappedFetch(4096, (r) => over.push(r))(`${base}/json?size=3000`);
    await assert.rejects(big.text(), /cap/);
    assert.equal(over.length, 1);
  });
});
