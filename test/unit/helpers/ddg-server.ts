import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local stand-in for the DuckDuckGo Instant Answer API, answering every query the same way. */
export async function startInstantAnswerServer(body: unknown = {
  Heading: 'Pepe',
  AbstractText: 'Pepe is an agent runtime.',
  AbstractURL: 'https://example.test/pepe',
  RelatedTopics: [{ Text: 'Slots - exclusive extension points', FirstURL: 'https://example.test/slots' }],
}): Promise<{ url: string; requests: URL[]; close: () => Promise<void>; server: Server }> {
  const requests: URL[] = [];
  const server = createServer((req, res) => {
    requests.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.setHeader('content-type', 'application/x-javascript');
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
