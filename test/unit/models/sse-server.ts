import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** A local stand-in for a model API on 127.0.0.1: replays one scripted reply per request. */

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Written in one piece (JSON error bodies). */
  body?: string;
  /** Written as separate TCP writes with a pause between them, so SSE events arrive split. */
  chunks?: (string | Buffer)[];
  /** After the chunks: cut the connection (`destroy`), keep it open (`hang`), or end cleanly (default). */
  then?: 'end' | 'destroy' | 'hang';
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface TestServer {
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export const FIXTURES = join(import.meta.dirname, '../../fixtures/sse');

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** Cuts text into `size`-byte pieces: events (and multi-byte characters) end up split across writes. */
export function splitBytes(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

export function sse(chunks: (string | Buffer)[], then: Reply['then'] = 'end'): Reply {
  return { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, chunks, then };
}

export function jsonError(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export async function startServer(replies: Reply[] | ((req: RecordedRequest, n: number) => Reply), pathPrefix = '/v1'): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text
      }
      const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      const n = requests.length - 1;
      const reply = typeof replies === 'function' ? replies(recorded, n) : replies[n];
      void send(res, reply ?? jsonError(500, { error: { message: `unexpected request #${n + 1}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${pathPrefix}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function send(res: ServerResponse, reply: Reply): Promise<void> {
  res.socket?.setNoDelay(true);
  res.writeHead(reply.status ?? 200, reply.headers ?? {});
  if (reply.body !== undefined) {
    res.end(reply.body);
    return;
  }
  res.flushHeaders();
  for (const chunk of reply.chunks ?? []) {
    if (res.destroyed) return;
    res.write(chunk);
    await delay(2);
  }
  if (reply.then === 'destroy') res.socket?.destroy();
  else if (reply.then !== 'hang') res.end();
}
